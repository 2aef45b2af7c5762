/**
 * One audit entry's changes (decision 063): a line per field, its name, then the value before
 * struck through (<del>) and the value after underlined (<ins>), with the words "was" and "now"
 * for a screen reader; a long text as its word-level difference. Lines wrap on a phone.
 */
import type { TextChange } from "~/shared/edit-conflict";

export interface AuditChangeLine {
  field: string;
  before: string | null;
  after: string | null;
  difference?: TextChange[];
}

/** Above this many lines (a record created or deleted) the lines fold behind a summary. */
const SHOWN_OPEN = 6;

function Value({ text, as }: { text: string; as: "del" | "ins" }) {
  const Tag = as;
  return (
    <Tag className={as === "del" ? "bg-red-50 text-red-900" : "bg-green-50 text-green-900"}>
      <span className="sr-only">{as === "del" ? "was " : "now "}</span>
      {text}
    </Tag>
  );
}

function Line({ change }: { change: AuditChangeLine }) {
  return (
    <li className="break-words py-0.5" data-testid="audit-change">
      <span className="font-semibold">{change.field}</span>
      {": "}
      {change.difference ? (
        <span className="whitespace-pre-wrap" data-testid="word-difference">
          {change.difference.map((c, i) =>
            c.change === "same" ? <span key={i}>{c.text}</span> : <Value key={i} text={c.text} as={c.change === "added" ? "ins" : "del"} />,
          )}
        </span>
      ) : (
        <>
          {change.before !== null ? <Value text={change.before} as="del" /> : null}
          {change.before !== null && change.after !== null ? " → " : null}
          {change.after !== null ? <Value text={change.after} as="ins" /> : null}
        </>
      )}
    </li>
  );
}

export function AuditChanges({ changes }: { changes: AuditChangeLine[] }) {
  if (changes.length === 0) return null;
  const list = (
    <ul className="text-sm">
      {changes.map((c) => (
        <Line key={c.field} change={c} />
      ))}
    </ul>
  );
  if (changes.length <= SHOWN_OPEN) return list;
  return (
    <details>
      <summary className="cursor-pointer text-blue-800 underline">{`${changes.length} fields`}</summary>
      {list}
    </details>
  );
}
