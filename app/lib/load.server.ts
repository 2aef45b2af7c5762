/**
 * Loader helpers: route ids are validated before they reach the database (a malformed id is a
 * 404 page, not an error), and a failed read is logged and shown as "no data" (spec: failed data
 * loads are ignored) instead of crashing the page.
 */
import { data, type AppLoadContext } from "react-router";
import { isUuid } from "~/shared/ids";

export function requireId(value: string | undefined): string {
  if (!value || !isUuid(value)) throw data(null, { status: 404 });
  return value;
}

export async function softLoad<T>(context: AppLoadContext, what: string, load: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await load();
  } catch (error) {
    context.logger.error({ err: error, requestId: context.requestId, what }, "data load failed");
    context.renderState.loadFailed = true;
    return fallback;
  }
}

/** Names the address of the records this page shows (see the anonymous page cache). */
export function namePagePath(context: AppLoadContext, path: string): void {
  context.renderState.pagePath = path;
}

export function notFoundUnless<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw data(null, { status: 404 });
  return value;
}
