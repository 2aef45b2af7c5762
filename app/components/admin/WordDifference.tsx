/**
 * A long text's word-level difference: words only in the other text underlined, words
 * only in this one struck through. Used by an edit conflict (the text saved now against the one
 * typed) and a version's page (the current text against that version's).
 */
import type { ReactNode } from "react";
import type { TextChange } from "~/shared/edit-conflict";

export function WordDifference({ changes, heading, legend }: { changes: TextChange[]; heading: string; legend: ReactNode }) {
  return (
    <div className="mt-3 rounded border border-stone-300 bg-stone-50 p-3 text-sm">
      <p className="mb-1 font-semibold">{heading}</p>
      <p className="mb-2 text-stone-700">{legend}</p>
      <p className="max-h-64 overflow-y-auto whitespace-pre-wrap break-words" data-testid="word-difference">
        {changes.map((c, i) =>
          c.change === "added" ? (
            <ins key={i} className="bg-green-100 text-green-900">
              {c.text}
            </ins>
          ) : c.change === "removed" ? (
            <del key={i} className="bg-red-100 text-red-900">
              {c.text}
            </del>
          ) : (
            <span key={i}>{c.text}</span>
          ),
        )}
      </p>
    </div>
  );
}
