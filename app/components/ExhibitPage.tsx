/**
 * The exhibit page (spec section 2). Members: title, description with Read More, photo carousel,
 * matching photo. Everyone else: title, team, category, year and a ticket banner.
 */
import { Link } from "react-router";
import type { ExhibitView } from "~/shared/catalog-types";
import type { BackLink } from "~/shared/exhibit-links";
import { seoMeta, shareCardUrl } from "~/lib/meta";
import { truncateAtWord } from "~/shared/text";
import { ExhibitDescription } from "./ExhibitDescription";
import { PhotoCarousel } from "./PhotoCarousel";
import { TicketBanner } from "./TicketBanner";

/**
 * The class of the element that stands for the paid part (Google's paywalled-content markup):
 * the full text and photos for members, the ticket banner in their place for everyone else.
 */
export const PAYWALL_CLASS = "paywall";

export interface ExhibitPageData {
  exhibit: ExhibitView;
  member: boolean;
  backLink: BackLink;
  canonical: string;
}

export function ExhibitPage({ exhibit, backLink }: ExhibitPageData) {
  return (
    <article className="mx-auto max-w-4xl px-4 py-8">
      <p>
        <Link to={backLink.to} className="font-semibold text-blue-800 underline" data-testid="back-link">
          {backLink.label}
        </Link>
      </p>
      <h1 className="mt-4 font-display text-3xl font-bold uppercase md:text-4xl">{exhibit.title}</h1>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-gray-700">
        <div className="flex gap-1">
          <dt className="font-semibold">Team:</dt>
          <dd>{exhibit.team.name}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="font-semibold">Category:</dt>
          <dd>{exhibit.category.categoryName}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="font-semibold">Year:</dt>
          <dd>{exhibit.year}</dd>
        </div>
      </dl>
      {exhibit.description !== undefined ? (
        <div className={`${PAYWALL_CLASS} mt-6`}>
          <ExhibitDescription text={exhibit.description} html={exhibit.descriptionHtml} />
          <PhotoCarousel photos={exhibit.exhibitPhotos ?? []} alts={exhibit.exhibitPhotoAlts ?? []} />
          {exhibit.matchingPhoto ? (
            <figure className="my-6">
              <img src={exhibit.matchingPhoto} alt={exhibit.matchingPhotoAlt ?? ""} width={1200} height={800} loading="lazy" className="aspect-[3/2] w-full rounded-lg object-contain" data-testid="matching-photo" />
              <figcaption className="mt-2 text-sm text-gray-700">Matching photo: {exhibit.matchingPhotoAlt}</figcaption>
            </figure>
          ) : null}
        </div>
      ) : (
        <div className={PAYWALL_CLASS} data-testid="paywall">
          <TicketBanner what="this exhibit's photos and full text" />
        </div>
      )}
    </article>
  );
}

/** Meta for every exhibit route, with the paywalled-content markup. */
export function exhibitMeta(data: ExhibitPageData | undefined, publicUrl: string | undefined) {
  if (!data) return [];
  const { exhibit, canonical } = data;
  const card = { kind: "exhibits", id: exhibit._id } as const;
  // What visitors may read: the JSON-LD never carries the member-only text.
  const publicDescription = `${exhibit.title} (${exhibit.year}), an exhibit about the ${exhibit.team.name}. A museum ticket unlocks the photos and full text.`;
  return seoMeta({
    title: exhibit.title,
    description: exhibit.description ? truncateAtWord(exhibit.description, 155).text : publicDescription,
    canonical,
    publicUrl,
    card,
    type: "article",
    jsonLd: {
      "@type": "CreativeWork",
      name: exhibit.title,
      about: exhibit.team.name,
      temporalCoverage: String(exhibit.year),
      url: canonical,
      description: publicDescription,
      image: publicUrl === undefined ? undefined : shareCardUrl(publicUrl, card),
      isAccessibleForFree: false,
      // The element that stands for the locked part in every HTML (members' text, visitors' banner).
      hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${PAYWALL_CLASS}` },
    },
  });
}
