/** The exhibit text cut at 500 characters on a word boundary, with Read More / Condense Text. */
import { useId, useState } from "react";
import { paragraphs, truncateAtWord } from "~/shared/text";

export function ExhibitDescription({ text, html }: { text: string; html?: string | null }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const short = truncateAtWord(text);
  const whole = expanded || !short.truncated;
  const shown = whole ? text : short.text;
  return (
    <div className="prose-museum" data-testid="exhibit-description">
      {/* The whole text shows its formatting when staff gave it some: HTML sanitized on the server when saved. */}
      {whole && html ? (
        <div id={id} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <div id={id}>
          {paragraphs(shown).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      )}
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
