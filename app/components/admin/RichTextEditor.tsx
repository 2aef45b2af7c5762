/**
 * The exhibit text's editor (TipTap), loaded only by the exhibit edit page and only once the page
 * has hydrated: until then, and without JavaScript, the page's plain textarea takes paragraphs or
 * simple HTML. The editor writes its HTML into a hidden field of the same name; the server
 * sanitizes whatever arrives (server/catalog/rich-text.ts), so the editor is a convenience, never
 * the guard. Its marks match the server's allow-list: bold, italic, underline, strike, h3/h4,
 * lists, quotes, links.
 */
import { EditorContent, useEditor, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useState } from "react";

function ToolbarButton({ editor, label, active, run }: { editor: Editor; label: string; active: boolean; run: (e: Editor) => void }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      // A pointer press leaves the focus in the text: TipTap gives it back only on the next frame,
      // and a key typed before that went to the button (a space pressed it again).
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => run(editor)}
      className={`rounded border px-2 py-1 text-sm ${active ? "border-ink bg-ink text-gold" : "border-stone-500 bg-white"}`}
    >
      {label}
    </button>
  );
}

export default function RichTextEditor({ name, initialHtml, label, describedBy }: { name: string; initialHtml: string; label: string; describedBy?: string }) {
  const [html, setHtml] = useState(initialHtml);
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [3, 4] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] },
      }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class: "prose-museum min-h-48 w-full rounded border border-stone-500 bg-white px-3 py-2 focus:outline-2",
        "data-testid": "rich-text-editor",
      },
    },
    onUpdate: ({ editor: e }) => setHtml(e.getHTML()),
  });
  if (!editor) return null;
  const link = (e: Editor) => {
    const href = window.prompt("Link address (https://...)", e.getAttributes("link").href ?? "https://");
    if (href === null) return;
    if (href === "") e.chain().focus().unsetLink().run();
    else e.chain().focus().extendMarkRange("link").setLink({ href }).run();
  };
  return (
    <div className="space-y-2">
      <div role="toolbar" aria-label={`${label}: formatting`} className="flex flex-wrap gap-1">
        <ToolbarButton editor={editor} label="Bold" active={editor.isActive("bold")} run={(e) => e.chain().focus().toggleBold().run()} />
        <ToolbarButton editor={editor} label="Italic" active={editor.isActive("italic")} run={(e) => e.chain().focus().toggleItalic().run()} />
        <ToolbarButton editor={editor} label="Heading" active={editor.isActive("heading", { level: 3 })} run={(e) => e.chain().focus().toggleHeading({ level: 3 }).run()} />
        <ToolbarButton editor={editor} label="Bulleted list" active={editor.isActive("bulletList")} run={(e) => e.chain().focus().toggleBulletList().run()} />
        <ToolbarButton editor={editor} label="Numbered list" active={editor.isActive("orderedList")} run={(e) => e.chain().focus().toggleOrderedList().run()} />
        <ToolbarButton editor={editor} label="Quote" active={editor.isActive("blockquote")} run={(e) => e.chain().focus().toggleBlockquote().run()} />
        <ToolbarButton editor={editor} label="Link" active={editor.isActive("link")} run={link} />
      </div>
      <EditorContent editor={editor} />
      <input type="hidden" name={name} value={html} />
    </div>
  );
}
