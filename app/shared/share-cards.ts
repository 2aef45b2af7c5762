/**
 * Share cards (decision 027): the 1200x630 images that social networks and chats show beside a
 * shared link. Each page names its card by address; the server draws it once (server/images/
 * share-cards.ts) from the record's public image or the team's logo on the museum's card design.
 */
export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;
/** Every card address starts here: the image routes' rate-limit tier applies to it. */
export const SHARE_CARD_PREFIX = "/images/share";

/** Pages without a record of their own: the title printed on their (default) card. */
export const PAGE_CARD_TITLES = {
  home: "A century of Pittsburgh sports",
  about: "About the Museum",
  contact: "Contact Us",
  admission: "Admission",
  subscribe: "Subscribe to the Newsletter",
  termsandconditions: "Terms and Conditions",
  privacypolicy: "Privacy Policy",
  enshrinees: "Wall of Fame",
  favoritestories: "Favorite Stories",
  gift: "Give a Ticket",
  page: "Pittsburgh Sports Museum",
} as const;
export type PageCard = keyof typeof PAGE_CARD_TITLES;

export type ShareCardRef =
  | { kind: "pages"; page: PageCard }
  | { kind: "teams"; id: string }
  | { kind: "categories"; teamId: string; categoryId: string }
  | { kind: "exhibits"; id: string }
  | { kind: "enshrinees"; id: string };

/** The card's address, relative to the site (the meta tags make it absolute on PUBLIC_URL). */
export function shareCardPath(ref: ShareCardRef): string {
  const tail =
    ref.kind === "pages" ? ref.page : ref.kind === "categories" ? `${encodeURIComponent(ref.teamId)}/${encodeURIComponent(ref.categoryId)}` : encodeURIComponent(ref.id);
  return `${SHARE_CARD_PREFIX}/${ref.kind}/${tail}.png`;
}

export function isPageCard(value: string): value is PageCard {
  return Object.prototype.hasOwnProperty.call(PAGE_CARD_TITLES, value);
}
