/**
 * The pages a view is counted for (decision 060): the site's own public pages and every public
 * team, category, exhibit and enshrinee page, from the catalog (its cache), kept for a minute
 * and dropped on a change of the collection. A view is counted under the page's own address
 * (an exhibit under its address on its team, whichever address the visitor came by), so the
 * counts hold only addresses the site made, never one a client typed. The account, the console,
 * sign-in, password and gift-redeem pages (some carry a token) are never counted.
 */
import { categoryPath, enshrineePath, exhibitPath, teamPath } from "../../app/shared/exhibit-links";
import type { Catalog } from "../catalog/catalog-service";

export type CountedKind = "page" | "team" | "category" | "exhibit" | "enshrinee";

export interface CountedPage {
  /** The address the view is counted under. */
  path: string;
  kind: CountedKind;
  /** The record's id (teams, categories, exhibits, enshrinees), or null for the site's own pages. */
  id: string | null;
  /** What the Overview calls it: the record's name or title, or the page's title. */
  name: string;
}

/** The site's own public pages, with the names the Overview gives them. */
export const SITE_PAGES: Record<string, string> = {
  "/": "Home",
  "/enshrinees": "Enshrinees",
  "/favoritestories": "Favorite stories",
  "/search": "Search",
  "/about": "About",
  "/contact": "Contact",
  "/subscribe": "Subscribe",
  "/termsandconditions": "Terms and conditions",
  "/privacypolicy": "Privacy policy",
  "/admission": "Admission",
  "/admission/payment": "Payment",
  "/gift": "Gift a ticket",
};

/** The longest address looked at; anything longer is no page of the site. */
const MAX_PATH = 400;

/** The address as a key: no query or fragment, no trailing slash, lower case, decoded once. */
export function pathKey(raw: string): string | null {
  if (typeof raw !== "string" || raw.length > MAX_PATH || !raw.startsWith("/")) return null;
  let p = raw.split(/[?#]/)[0];
  try {
    p = decodeURIComponent(p);
  } catch {
    return null;
  }
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p.toLowerCase();
}

type PageCatalog = Pick<Catalog, "listTeams" | "listExhibits" | "listEnshrinees">;

async function buildPages(catalog: PageCatalog): Promise<Map<string, CountedPage>> {
  const [teams, exhibits, enshrinees] = await Promise.all([catalog.listTeams(), catalog.listExhibits({}, false), catalog.listEnshrinees()]);
  const pages = new Map<string, CountedPage>();
  const add = (page: CountedPage, ...aliases: string[]) => {
    for (const p of [page.path, ...aliases]) pages.set(p.toLowerCase(), page);
    // By record too (a key no address has), for the addresses made of two records' ids.
    if (page.id) pages.set(`#${page.kind}:${page.id.toLowerCase()}`, page);
  };
  for (const [path, name] of Object.entries(SITE_PAGES)) add({ path, kind: "page", id: null, name });
  for (const t of teams) add({ path: teamPath(t._id), kind: "team", id: t._id, name: t.name });
  for (const e of exhibits) {
    const category = categoryPath(e.team._id, e.category._id);
    if (!pages.has(category.toLowerCase())) add({ path: category, kind: "category", id: e.category._id, name: `${e.category.categoryName} (${e.team.name})` });
    add({ path: exhibitPath(e), kind: "exhibit", id: e._id, name: e.title }, ...(e.favoriteStory ? [`/favoritestories/exhibit/${e._id}`] : []));
  }
  for (const p of enshrinees) add({ path: enshrineePath(p), kind: "enshrinee", id: p._id, name: p.fullName });
  return pages;
}

/** An enshrinee's exhibit (`/:fullName/:enshrineeID/exhibit/:id`): the exhibit's id when the enshrinee is public. */
const ENSHRINEE_EXHIBIT = /^\/[^/]+\/([^/]+)\/exhibit\/([^/]+)$/;

export function createVisitPages(catalog: PageCatalog, { ttlMs = 60_000, now = () => Date.now() } = {}) {
  let built: { at: number; pages: Promise<Map<string, CountedPage>> } | null = null;
  const pages = () => {
    if (!built || now() - built.at > ttlMs) {
      const next = { at: now(), pages: buildPages(catalog) };
      // A failed read is tried again by the next view, not kept.
      next.pages.catch(() => {
        if (built === next) built = null;
      });
      built = next;
    }
    return built.pages;
  };
  return {
    /** Every counted page by its key (`pathKey`, the aliases of exhibits included; `#kind:id` by record). */
    pages,
    /** The collection changed: the next view reads the catalog again. */
    changed() {
      built = null;
    },
    /** The page a view of `rawPath` is counted for, or null when it is no public page of the site. */
    async resolve(rawPath: string): Promise<CountedPage | null> {
      const key = pathKey(rawPath);
      if (key === null) return null;
      const all = await pages();
      const page = all.get(key);
      if (page) return page;
      const alias = ENSHRINEE_EXHIBIT.exec(key);
      if (!alias) return null;
      return all.has(`#enshrinee:${alias[1]}`) ? (all.get(`#exhibit:${alias[2]}`) ?? null) : null;
    },
  };
}

export type VisitPages = ReturnType<typeof createVisitPages>;
