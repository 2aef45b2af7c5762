/**
 * A rich-text field of the console (exhibit texts, enshrinee biographies): a textarea (works
 * without JavaScript: plain paragraphs or simple HTML), replaced by the rich-text editor once
 * the page has hydrated, starting from whatever the textarea holds at that moment. The server
 * sanitizes whatever arrives (server/catalog/rich-text.ts).
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { inputProps } from "./ConsoleUi";
import { PUT_BACK_EVENT } from "./kept-typing";

/** What the field's hint says (the same allowed HTML everywhere). */
export const RICH_TEXT_HINT =
  "Bold, italics, headings, lists, quotes and links; anything else is removed when saved. Without the editor: paragraphs separated by a blank line, or simple HTML.";

/** Loaded only on the pages with a rich-text field, and only after hydration. */
const RichTextEditor = lazy(() => import("./RichTextEditor"));

export function RichTextField({ name, label, initial, error, rows = 12 }: { name: string; label: string; initial: string; error?: string; rows?: number }) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const [editorFrom, setEditorFrom] = useState<{ html: string; key: number } | null>(null);
  useEffect(() => {
    setEditorFrom((was) => ({ html: textarea.current?.value ?? initial, key: (was?.key ?? 0) + 1 }));
  }, [initial]);
  // Typing kept in the browser, put back (kept-typing.ts): the editor starts again from it.
  useEffect(() => {
    const element = wrapper.current;
    const onPutBack = (event: Event) => {
      const html = String((event as CustomEvent<string>).detail);
      if (textarea.current) textarea.current.value = html;
      setEditorFrom((was) => ({ html, key: (was?.key ?? 0) + 1 }));
    };
    element?.addEventListener(PUT_BACK_EVENT, onPutBack);
    return () => element?.removeEventListener(PUT_BACK_EVENT, onPutBack);
  }, []);
  const plain = <textarea ref={textarea} {...inputProps(name, error, true)} defaultValue={initial} rows={rows} />;
  return (
    <div ref={wrapper} data-rich-text={name}>
      {editorFrom === null ? (
        plain
      ) : (
        <Suspense fallback={plain}>
          <RichTextEditor key={editorFrom.key} name={name} initialHtml={editorFrom.html} label={label} describedBy={`${name}-hint`} />
        </Suspense>
      )}
    </div>
  );
}
