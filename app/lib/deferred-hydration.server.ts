/**
 * Hydration on intent (decision 016). For a page whose routes allow it (`handle.hydrate`,
 * app/lib/hydration.ts), React Router's module script is rewritten so that its imports run only
 * once the person shows intent, or when a timer of the page needs its scripts, and its
 * modulepreload links are left out: the page load fetches no JavaScript. A small inline script
 * (app/lib/hydration-bootstrap.js, minified by the build, part of the same module script, so
 * the CSP nonce or the page cache's hash covers it) waits for the intent, and until React has
 * hydrated it holds the clicks on script-only buttons, double-clicks (a photo's zoom) and the
 * form submissions and replays them once React is there, and hands React what was typed before
 * (React keeps typed values when it hydrates but does not tell the page's state about them). If
 * the scripts fail to load, held submissions go ahead natively.
 */
import type { EntryContext } from "react-router";
import { HYDRATION_LEAD_MS, type HydrationHandle, type HydrationWhen } from "./hydration";
import BOOTSTRAP from "./hydration-bootstrap.js?inline-script";

export type HydrationPlan = { defer: false } | { defer: true; startAtMs: number | null };

/** What the page's routes ask for: deferred only for a plain GET page whose every route allows it. */
export function hydrationPlan(method: string, context: EntryContext): HydrationPlan {
  const handlerContext = context.staticHandlerContext;
  if (method !== "GET" || handlerContext.statusCode !== 200 || handlerContext.errors || handlerContext.actionData) return { defer: false };
  let startAtMs: number | null = null;
  for (const match of handlerContext.matches) {
    if (match.route.id === "root") continue;
    const handle = context.routeModules[match.route.id]?.handle as HydrationHandle | undefined;
    const rule = handle?.hydrate;
    const when: HydrationWhen = typeof rule === "function" ? rule(handlerContext.loaderData[match.route.id]) : (rule ?? "now");
    if (when === "now") return { defer: false };
    if (when !== "intent") startAtMs = Math.min(startAtMs ?? Infinity, Math.max(0, when.by - HYDRATION_LEAD_MS));
  }
  return { defer: true, startAtMs };
}


const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /^\s*import\s+(?:\*\s+as\s+(\w+)\s+from\s+)?("[^"]+");?\s*$/gm;

/**
 * The page's HTML with React Router's module script held back (see above) and without its
 * modulepreload links; unchanged if the script is not found in the expected shape.
 */
export function deferHydration(html: string, startAtMs: number | null): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const names: string[] = [];
  const urls: string[] = [];
  const rest = body.replace(STATIC_IMPORT, (_, name: string | undefined, url: string) => {
    names.push(name ?? "_");
    urls.push(url);
    return "";
  });
  if (urls.length === 0) return html;
  const start = `async () => {\nconst [${names.join(", ")}] = await Promise.all([${urls.map((u) => `import(${u})`).join(", ")}]);\n${rest.replace(/^;/, "").replace(/^(\s*)import\(/m, "$1await import(")}\n}`;
  const deferred = `${open}(${BOOTSTRAP})(${start}, ${startAtMs === null ? "null" : Math.round(startAtMs)});${close}`;
  return html.replace(whole, () => deferred).replace(/<link rel="modulepreload"[^>]*\/?>/g, "");
}
