/**
 * A rich-text field of the console (exhibit texts, enshrinee biographies): a textarea (works
 * without JavaScript: plain paragraphs or simple HTML), replaced by the rich-text editor once
 * the page has hydrated, starting from whatever the textarea holds at that moment. The server
 * sanitizes whatever arrives (server/catalog/rich-text.ts).
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { inputProps } from "./ConsoleUi";

/** What the field's hint says (the same allowed HTML everywhere). */
export const RICH_TEXT_HINT =
  "Bold, italics, headings, lists, quotes and links; anything else is removed when saved. Without the editor: paragraphs separated by a blank line, or simple HTML.";

/** Loaded only on the pages with a rich-text field, and only after hydration. */
const RichTextEditor = lazy(() => import("./RichTextEditor"));

export function RichTextField({ name, label, initial, error, rows = 12 }: { name: string; label: string; initial: string; error?: string; rows?: number }) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [editorFrom, setEditorFrom] = useState<string | null>(null);
  useEffect(() => {
    setEditorFrom(textarea.current?.value ?? initial);
  }, [initial]);
  const plain = <textarea ref={textarea} {...inputProps(name, error, true)} defaultValue={initial} rows={rows} />;
  if (editorFrom === null) return plain;
  return (
    <Suspense fallback={plain}>
      <RichTextEditor name={name} initialHtml={editorFrom} label={label} describedBy={`${name}-hint`} />
    </Suspense>
  );
}
