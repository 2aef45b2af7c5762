/**
 * Moved to app/shared/search.ts (issue 23). Kept only for server/security/limits.ts, which another
 * change owns; its import moves to app/shared when the branches meet, and this file goes.
 */
export { SEARCH_MESSAGES } from "../shared/search";
