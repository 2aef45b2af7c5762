/**
 * Moved to app/shared/text-fields.ts (issue 23). Kept only for server/api/accounts-api.ts, which
 * another change owns; its import moves to app/shared when the branches meet, and this file goes.
 */
export { singleLineText } from "../shared/text-fields";
