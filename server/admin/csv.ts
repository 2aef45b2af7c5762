/**
 * CSV exports, streamed: rows are written batch by batch as the database hands them over, so an
 * export of 100,000 members never holds the table in memory. Cells that a spreadsheet would
 * read as a formula (starting with =, +, -, @, a tab or a carriage return) are prefixed with
 * an apostrophe, so an address like `=HYPERLINK(...)` typed into a form stays text.
 */

/** One cell, quoted as RFC 4180 asks and neutralized against formula injection. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text.startsWith("'") ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** A streamed CSV body: the header, then each batch's lines as it arrives. */
export function csvStream<Row>(header: readonly string[], batches: AsyncIterable<Row[]>, toCells: (row: Row) => unknown[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // A byte order mark, so spreadsheet programs read the names' accents right.
        controller.enqueue(encoder.encode(`\ufeff${csvLine(header)}`));
        return;
      }
      try {
        const { value, done } = await iterator.next();
        if (done) return controller.close();
        controller.enqueue(encoder.encode(value.map((row) => csvLine(toCells(row))).join("")));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

export function csvResponse(filename: string, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
