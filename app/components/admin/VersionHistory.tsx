/**
 * The Versions panel of a record's edit page (decision 030): every saved version, newest first,
 * with who saved it, when (museum time, with the zone) and which fields it changed, each linking
 * to the version's own page (/admin/<kind>/<id>/versions/<version>), where it can be restored.
 */
import { Link } from "react-router";
import { changedText, type VersionSummary } from "~/shared/record-versions";

export function VersionHistory({
  versions,
  base,
  covers,
  title = "Versions",
  headingId = "versions-heading",
}: {
  versions: VersionSummary[];
  /** The edit page's address, e.g. /admin/teams/<id>. */
  base: string;
  /** What a version covers, said on the page. */
  covers?: string;
  /** The panel's heading, and its id: a page with several panels (the banner's variants) names each. */
  title?: string;
  headingId?: string;
}) {
  return (
    <section aria-labelledby={headingId} className="mt-8 border-t border-stone-300 pt-4" data-testid="versions">
      <h2 id={headingId} className="font-display text-xl font-bold uppercase tracking-wide">
        {title}
      </h2>
      <p className="mb-2 text-sm text-stone-700">
        Each save keeps a version. Open one to see its fields and restore it (a restore is saved as a new version).{covers ? ` ${covers}` : ""}
      </p>
      {versions.length === 0 ? (
        <p className="text-sm">No versions recorded yet: the first save keeps one.</p>
      ) : (
        <ol className="divide-y divide-stone-200 text-sm">
          {versions.map((v) => (
            <li key={v.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2" data-testid="version">
              <Link to={`${base}/versions/${v.id}`} className="font-semibold text-blue-800 underline">
                {v.when}
              </Link>
              <span>{v.by ?? "before the console"}</span>
              <span className="text-stone-700">{changedText(v)}</span>
              {v.note ? <span className="text-stone-700">({v.note})</span> : null}
              {v.current ? <span className="rounded bg-stone-200 px-2 text-xs font-semibold uppercase">Current</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
