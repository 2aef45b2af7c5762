/** The museum's name, as every page title, email and receipt writes it. */
export const SITE_NAME = "Pittsburgh Sports Museum & Hall of Fame";
