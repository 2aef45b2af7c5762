/**
 * The museum's public facts for search engines (the home page's Museum JSON-LD, decision 027).
 * Edit here: the address, the opening hours and the logo are not secrets and change rarely, so
 * they live with the site's other texts rather than in the environment.
 */
export const MUSEUM = {
  address: {
    streetAddress: "1212 Smallman Street",
    addressLocality: "Pittsburgh",
    addressRegion: "PA",
    postalCode: "15222",
    addressCountry: "US",
  },
  /** schema.org OpeningHoursSpecification rows: days, and opening and closing times (museum time). */
  openingHours: [
    { dayOfWeek: ["Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], opens: "10:00", closes: "17:00" },
  ],
  /** A path on the site (or an absolute address) of the museum's logo. */
  logo: "/favicon.svg",
  /**
   * The day the site's own texts (about, contact, admission, subscribe, terms, privacy) last
   * changed: their lastmod in the sitemap. Update it with the texts.
   */
  textsUpdated: "2026-11-29",
  /**
   * The privacy policy's section on visit counts (decision 060), shown while VISIT_COUNTS is on:
   * the policy's other sections do not speak of counting pages or keeping search words, so
   * without it the policy would not say all that the site keeps. Edit the words freely; keep
   * them true to what is counted (docs/staff-guide.md, "Reading the Overview").
   */
  privacyVisitCounts: {
    title: "Visit counts",
    added: "November 29, 2026",
    paragraphs: [
      "To learn which pages people read, each page you open sends one small request to this website that adds one to that page's count for the day. It carries no cookie, and we keep no IP address, browser details or anything else that could tell one visitor from another: only the page, the day and how many times it was opened. Search engines' robots and pages loaded ahead of time are not counted.",
      "We also count searches per day, with and without results, and keep the words of searches that found nothing (never who searched them), so that we can add what people look for. These counts stay on our own server; nothing is sent to anyone else.",
    ],
  },
} as const;
