/**
 * /admin/exhibits/import and /admin/enshrinees/import (decisions 034 and 051): upload a CSV in
 * the export's columns, see the dry run (each row: would create, would update with each field's
 * old and new value, unchanged, changed since the export, or its errors by row and column), then
 * confirm. The confirm form carries the checked file again (base64 in a hidden field) and a box
 * per row changed since the export, ticked to apply it anyway, so it works without JavaScript and
 * nothing is kept on the server between the two; the import plans the file again in its
 * transaction and writes all rows or none.
 */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/collection-import";
import { ConsoleHeading, ConsoleNotice, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { actorOf, formText, requireConsole } from "./guard.server";
import { collectionKindOf, type CollectionKind } from "./collection-csv.server";
import { countsOfParam, countsParam, dryRunMessage, importedMessage, OUTCOME_LABELS, type ImportReport } from "~/shared/collection-import-report";

const NOUN: Record<CollectionKind, { one: string; many: string; title: string }> = {
  exhibits: { one: "exhibit", many: "exhibits", title: "Import exhibits" },
  enshrinees: { one: "enshrinee", many: "enshrinees", title: "Import enshrinees" },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const kind = collectionKindOf(request);
  const done = countsOfParam(new URL(request.url).searchParams.get("done"));
  return {
    kind,
    columns: context.services.admin.collectionCsv.columns(kind),
    done: done ? importedMessage(kind, done) : null,
  };
}

type Answer = { ok: boolean; message: string; report?: ImportReport; file?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const kind = collectionKindOf(request);
  const limited = rateLimitedAnswer<Answer>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
      if (e instanceof Error && e.name === "BodyTooLargeError") return data<Answer>({ ok: false, message: `${e.message} Split the file into several imports.` }, { status: 413 });
    }
    return data<Answer>({ ok: false, message: "The upload could not be read: please choose the file again." }, { status: 400 });
  }
  const upload = form.get("file");
  const carried = formText(form, "csv");
  let bytes: Uint8Array;
  if (upload instanceof File && upload.size > 0) bytes = new Uint8Array(await upload.arrayBuffer());
  else if (carried && /^[A-Za-z0-9+/=\s]+$/.test(carried)) bytes = new Uint8Array(Buffer.from(carried, "base64"));
  else return data<Answer>({ ok: false, message: "Please choose a CSV file." }, { status: 400 });
  const csv = context.services.admin.collectionCsv;
  if (formText(form, "intent") === "import") {
    const overwrite = form.getAll("overwrite").filter((v): v is string => typeof v === "string");
    const result = await csv.run(actorOf(staff), kind, bytes, overwrite);
    if (result.ok) return redirect(`/admin/${kind}/import?done=${countsParam(result.report)}`, 303);
    return data<Answer>({ ok: false, message: result.message, report: result.report, file: Buffer.from(bytes).toString("base64") }, { status: 400 });
  }
  const report = await csv.check(kind, bytes);
  const refused = report.fileErrors.length > 0 || report.errors > 0;
  const message = report.fileErrors.length ? "The file cannot be imported." : dryRunMessage(report);
  return data<Answer>({ ok: !refused, message, report, file: Buffer.from(bytes).toString("base64") }, { status: refused ? 400 : 200 });
}

export default function CollectionImport({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, columns, done } = loaderData;
  const noun = NOUN[kind];
  const report = actionData?.report;
  const busy = useNavigation().state === "submitting";
  const clean = report && report.fileErrors.length === 0 && report.errors === 0;
  const toWrite = report ? report.creates + report.updates : 0;
  const importable = clean && toWrite + report.stale > 0;
  return (
    <section className="max-w-4xl">
      <ConsoleHeading>{noun.title}</ConsoleHeading>
      <ConsoleNotice result={actionData ? { ok: actionData.ok, message: actionData.message } : done ? { ok: true, message: done } : null} />
      <p className="mb-2">
        A CSV file in UTF-8 with a header row, in the columns of the{" "}
        <a href={`/admin/${kind}/export`} className="font-semibold text-blue-800 underline">
          {noun.many} export
        </a>
        : <code className="break-words">{columns.join(", ")}</code>.
      </p>
      <p className="mb-4 text-sm">
        {kind === "exhibits"
          ? "Team and category by name; enshrinees by full name, separated by semicolons. A row with the id of an existing exhibit updates it; any other row creates one."
          : "A row with the id of an existing enshrinee updates them; any other row creates one (portraits are not in the file and stay as they are)."}{" "}
        A column left out of the file leaves that field as it is. A row whose record was changed since the export (its version) is left as it is unless you tick it. The check writes
        nothing; the import then writes every row or none. The columns may be separated by commas, semicolons or tabs, as a spreadsheet saves CSV in any language: the header line tells which.
      </p>
      <Form method="post" encType="multipart/form-data" className="mb-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="file" className="block font-semibold">
            CSV file
          </label>
          <input id="file" name="file" type="file" accept=".csv,text/csv" required className="text-sm" />
        </div>
        <PrimaryButton name="intent" value="check" busy={busy}>
          Check the file
        </PrimaryButton>
      </Form>
      {report ? (
        <div>
          <h2 className="mb-2 font-display text-xl font-bold uppercase">Dry run</h2>
          {report.fileErrors.length ? (
            <ul className="mb-4 list-disc pl-6 text-red-900" data-testid="file-errors">
              {report.fileErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
          {report.rows.length ? (
            <div className="relative mb-4 overflow-x-auto" role="region" aria-label="Rows of the file" tabIndex={0}>
              <table className="w-full border-collapse text-left text-sm">
                <caption className="sr-only">Each row&apos;s outcome</caption>
                <thead>
                  <tr className="border-b-2 border-ink">
                    <th scope="col" className="px-2 py-1">
                      Row
                    </th>
                    <th scope="col" className="px-2 py-1">
                      Outcome
                    </th>
                    <th scope="col" className="px-2 py-1">
                      {kind === "exhibits" ? "Title" : "Name"}
                    </th>
                    <th scope="col" className="px-2 py-1">
                      Changes and errors
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.rows.map((r) => (
                    <tr key={r.row} className={`border-b border-stone-300 ${r.outcome === "error" ? "bg-red-50" : ""}`} data-testid="import-row">
                      <td className="px-2 py-1">{r.row}</td>
                      <td className="px-2 py-1 font-semibold">{OUTCOME_LABELS[r.outcome]}</td>
                      <td className="px-2 py-1">{r.label}</td>
                      <td className="px-2 py-1">
                        {r.errors.map((e) => (
                          <div key={e.column}>{`Row ${r.row}, ${e.column}: ${e.message}`}</div>
                        ))}
                        {r.changes.length ? (
                          <ul className="break-words" aria-label={`Changes of row ${r.row}`}>
                            {r.changes.map((c) => (
                              <li key={c.column}>{`${c.column}: “${c.before}” → “${c.after}”`}</li>
                            ))}
                          </ul>
                        ) : null}
                        {r.outcome === "stale" && r.id ? (
                          <label className="mt-1 block font-semibold">
                            <input type="checkbox" name="overwrite" value={r.id} form="import-confirm" /> {`Apply row ${r.row} anyway, over the change made since the export`}
                          </label>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {importable && actionData?.file ? (
            <Form method="post" encType="multipart/form-data" id="import-confirm">
              <input type="hidden" name="csv" value={actionData.file} />
              <PrimaryButton name="intent" value="import" busy={busy}>
                {toWrite === 0 ? "Apply the ticked rows" : `Import ${toWrite} ${toWrite === 1 ? noun.one : noun.many}${report.stale ? " and the ticked rows" : ""}`}
              </PrimaryButton>
            </Form>
          ) : clean && report.rows.length ? (
            <p>Nothing to import: every row is as the collection has it.</p>
          ) : report.rows.length ? (
            <p>Correct the rows marked Error in the file, then check it again.</p>
          ) : null}
        </div>
      ) : null}
      <p className="mt-6">
        <Link to={`/admin/${kind}`} className="font-semibold text-blue-800 underline">
          Back to the {noun.many}
        </Link>
      </p>
    </section>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData ? NOUN[loaderData.kind].title : "Import"} | Staff console` }];
}
