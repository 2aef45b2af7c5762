/** `isDatabaseUnavailable` for app/ (which imports server code only from *.server modules): the page's 503 in app/entry.server.tsx. */
export { isDatabaseUnavailable } from "./errors";
