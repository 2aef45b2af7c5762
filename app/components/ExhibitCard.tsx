/** A member's exhibit card: thumbnail, title, year. */
import { Link } from "react-router";
import type { ExhibitView } from "~/shared/catalog-types";
import { imageSrcSet, THUMBNAIL_HEIGHT } from "~/shared/images";

export function ExhibitCard({ exhibit, to }: { exhibit: ExhibitView; to: string }) {
  return (
    <Link
      to={to}
      className="group block overflow-hidden rounded-lg bg-white shadow ring-1 ring-black/5 transition hover:shadow-lg"
      data-testid="exhibit-card"
    >
      {exhibit.thumbnailURL ? (
        <img
          src={exhibit.thumbnailURL}
          srcSet={imageSrcSet(exhibit.thumbnailURL, THUMBNAIL_HEIGHT)}
          alt={exhibit.thumbnailAlt ?? ""}
          width={THUMBNAIL_HEIGHT * 1.5}
          height={THUMBNAIL_HEIGHT}
          loading="lazy"
          className="aspect-[3/2] w-full object-cover"
        />
      ) : null}
      <div className="p-4">
        <p className="text-sm font-semibold text-gold-deep">{exhibit.year}</p>
        <h2 className="font-display text-lg font-bold uppercase leading-snug group-hover:underline">{exhibit.title}</h2>
      </div>
    </Link>
  );
}

/** What a visitor sees instead: a button with the short title. */
export function ShortTitleButton({ exhibit, to }: { exhibit: ExhibitView; to: string }) {
  return (
    <Link
      to={to}
      className="block rounded border-2 border-ink bg-white px-4 py-3 text-center font-semibold uppercase tracking-wide hover:bg-gold"
      data-testid="short-title-button"
    >
      {exhibit.shortTitle}
    </Link>
  );
}
