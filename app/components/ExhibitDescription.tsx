/** The exhibit text cut at 500 characters on a word boundary, with Read More / Condense Text. */
import { useId, useState } from "react";
import { paragraphs, truncateAtWord } from "~/lib/text";

export function ExhibitDescription({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const short = truncateAtWord(text);
  const shown = expanded || !short.truncated ? text : short.text;
  return (
    <div className="prose-museum" data-testid="exhibit-description">
      <div id={id}>
        {paragraphs(shown).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {short.truncated ? (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((v) => !v)}
          className="rounded bg-ink px-4 py-2 font-semibold uppercase text-gold hover:bg-steel"
        >
          {expanded ? "Condense Text" : "Read More"}
        </button>
      ) : null}
    </div>
  );
}
