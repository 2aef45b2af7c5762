/** The museum's short name, as email subjects and card statements write it. */
export const SITE_SHORT_NAME = "Pittsburgh Sports Museum";

/** The museum's name, as every page title, email and receipt writes it. */
export const SITE_NAME = `${SITE_SHORT_NAME} & Hall of Fame`;
