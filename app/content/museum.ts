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
  textsUpdated: "2026-11-26",
} as const;
