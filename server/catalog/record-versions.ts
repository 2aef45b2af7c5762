/**
 * Versions of the collection's records (decision 030): teams, categories, exhibits and
 * enshrinees. Every save already writes the whole record into the audit log (`after`, with an
 * exhibit's photos and linked enshrinees), in the save's own transaction, and the audit log is
 * never purged; so a record's versions are read from there (entity type and id, newest first)
 * rather than written a second time. The record as it was before its first recorded change (the
 * demo collection, an import) is the first `before`, offered as the oldest version.
 *
 * A restore is an ordinary save through collection-writes.ts (so it becomes the newest version,
 * with its own "Edited" audit row) plus one `<kind>.restore` audit row saying which version came
 * back, both in one transaction. A version covers what the record's edit form saves; an exhibit's
 * photos, thumbnail and matching photo belong to its Photos page (removed photos' files are gone)
 * and a restore keeps the current ones.
 *
 * The home banner's versions are per variant (desktop, mobile): every banner change already
 * writes the variant's whole slide list, so a version is the banner as the home page showed it,
 * slides in order with their fields and status; a restore puts that list back (`banner.replace`).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { clockTimeIn } from "../../app/shared/calendar";
import { ORIGINAL_VERSION, type VersionDetail, type VersionField, type VersionSummary } from "../../app/shared/record-versions";
import { publicationLabel } from "../../app/shared/publication";
import type { Database } from "../db/client";
import { auditLog, categories, enshrinees, teams } from "../db/schema";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { createCollectionWrites, type CategoryInput, type EnshrineeInput, type ExhibitInput, type TeamInput } from "./collection-writes";
import { readable, textDifference } from "./edit-merge";
import { transactionRetrying } from "../db/retrying";

export type VersionedKind = "team" | "category" | "exhibit" | "enshrinee" | "banner";

/** The audit actions that make a version of each kind (`<kind>.<action>`); `<kind>.restore` notes which came back. */
const SAVES: Record<VersionedKind, string[]> = {
  team: ["create", "update"],
  category: ["create", "update"],
  exhibit: ["create", "update"],
  enshrinee: ["create", "update"],
  // Every change of a variant (collection-writes.ts, a slide back from the Trash, a version put back).
  banner: ["add", "update", "move", "remove", "untrash", "replace"],
};

/**
 * The fields of each kind that a version shows, compares and restores, with the edit form's
 * labels. `satisfies` keeps them in step with the save functions' inputs: a field added to an
 * input fails the typecheck here until it is labelled. An exhibit's or enshrinee's publication
 * (draft, scheduled, published: decision 032) is not part of a version: a restore keeps it.
 */
type Versioned<T> = Record<Exclude<keyof T, "publication">, string>;
const TEAM_FIELDS = { name: "Name", league: "League", logo: "Logo", headline: "Headline", description: "Summary and description", sortOrder: "Order on the home page" } satisfies Record<keyof TeamInput, string>;
const CATEGORY_FIELDS = { categoryName: "Name", sortOrder: "Order on team pages" } satisfies Record<keyof CategoryInput, string>;
const EXHIBIT_FIELDS = {
  teamId: "Team",
  categoryId: "Category",
  title: "Title",
  shortTitle: "Short title",
  year: "Year",
  descriptionHtml: "Text (members only)",
  active: "Listed",
  favoriteStory: "Favorite story",
  enshrineeIds: "Enshrinees",
  thumbnail: "Thumbnail",
  thumbnailAlt: "Thumbnail description",
  matchingPhoto: "Matching photo",
  matchingPhotoAlt: "Matching photo description",
} satisfies Versioned<ExhibitInput>;
const ENSHRINEE_FIELDS = { fullName: "Full name", firstName: "First name", lastName: "Last name", biography: "Biography (members only)" } satisfies Versioned<EnshrineeInput>;

/** The long texts (rich text): shown as their words, with a word difference from the current one. */
const LONG_TEXT_FIELDS = new Set(["descriptionHtml", "biography"]);

/** Shown and compared, never restored (the Photos page's). */
const EXHIBIT_PHOTO_FIELDS = new Set(["thumbnail", "thumbnailAlt", "matchingPhoto", "matchingPhotoAlt", "photos"]);

const FIELDS: Record<Exclude<VersionedKind, "banner">, Record<string, string>> = {
  team: TEAM_FIELDS,
  category: CATEGORY_FIELDS,
  exhibit: { ...EXHIBIT_FIELDS, photos: "Photos" },
  enshrinee: ENSHRINEE_FIELDS,
};

/** A banner slide as the audit log holds it (`publishAt` as JSON text; `id` since migration 0023). */
interface SlideState {
  id?: string;
  file: string;
  alt: string;
  width: number;
  height: number;
  publishAt: string | null;
}
const SLIDE_FIELDS = { file: "image", alt: "description", size: "size", publishAt: "status" } as const;
const slidesIn = (state: Snapshot): SlideState[] => (Array.isArray(state.slides) ? (state.slides as SlideState[]) : []);
const slideValue = (s: SlideState, field: keyof typeof SLIDE_FIELDS) => (field === "size" ? `${s.width} × ${s.height}` : s[field]);
/** A slide's identity across versions: its id, or for rows written before slides had one, its fields. */
const slideKey = (s: SlideState) => s.id ?? JSON.stringify([s.file, s.alt, s.width, s.height, s.publishAt]);

/**
 * What changed in a banner variant, in words: each slide added or removed, each field of a slide
 * edited (named by its place now), and the order when the same slides moved.
 */
function bannerChanges(state: Snapshot, previous: Snapshot): string[] {
  const now = slidesIn(state);
  const before = slidesIn(previous);
  const earlier = new Map(before.map((s) => [slideKey(s), s]));
  const kept = new Set(now.map(slideKey));
  const changes: string[] = [];
  now.forEach((s, i) => {
    const old = earlier.get(slideKey(s));
    if (!old) changes.push(`Slide ${i + 1} added`);
    else for (const [field, label] of Object.entries(SLIDE_FIELDS)) if (!same(slideValue(s, field as keyof typeof SLIDE_FIELDS), slideValue(old, field as keyof typeof SLIDE_FIELDS))) changes.push(`Slide ${i + 1} ${label}`);
  });
  before.forEach((s) => {
    if (!kept.has(slideKey(s))) changes.push(`Slide removed (${s.alt})`);
  });
  const order = (list: SlideState[], among: Set<string>) => list.map(slideKey).filter((k) => among.has(k));
  const both = new Set([...kept].filter((k) => earlier.has(k)));
  if (!same(order(now, both), order(before, both))) changes.push("Order of the slides");
  return changes;
}

type Snapshot = Record<string, unknown>;

interface VersionRow {
  id: string;
  at: Date;
  by: string | null;
  state: Snapshot;
  /** The version this one restored, if it was a restore. */
  restoredFrom: string | null;
}

export interface VersionDeps {
  db: Database;
  now?: () => Date;
  timeZone: string;
  notifyChange: (tx?: Database) => Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What the form edits: an exhibit's text is its HTML, or its plain text for records loaded before the editor. */
function fieldValue(kind: VersionedKind, state: Snapshot, field: string): unknown {
  if (kind === "exhibit" && field === "descriptionHtml") return state.descriptionHtml ?? state.description ?? "";
  if (kind === "exhibit" && field === "enshrineeIds") return [...((state.enshrineeIds as string[] | undefined) ?? [])].sort();
  // An enshrinee's biography is its HTML (the plain text is derived from it): a restore keeps the formatting.
  if (kind === "enshrinee" && field === "biography") return typeof state.biographyHtml === "string" && state.biographyHtml ? state.biographyHtml : (state.biography ?? "");
  if (kind === "exhibit" && field === "photos") return ((state.photos as { file: string; alt: string }[] | undefined) ?? []).map((p) => ({ file: p.file, alt: p.alt }));
  return state[field];
}

function changedLabels(kind: VersionedKind, state: Snapshot, previous: Snapshot | null): string[] {
  if (!previous) return [];
  if (kind === "banner") return bannerChanges(state, previous);
  return Object.entries(FIELDS[kind])
    .filter(([field]) => !same(fieldValue(kind, state, field), fieldValue(kind, previous, field)))
    .map(([, label]) => label);
}

function titleOf(kind: VersionedKind, state: Snapshot, id: string): string {
  if (kind === "banner") return `${id === "mobile" ? "Mobile" : "Desktop"} banner`;
  const title = kind === "team" ? state.name : kind === "category" ? state.categoryName : kind === "exhibit" ? state.title : state.fullName;
  return typeof title === "string" ? title : "";
}

export function createRecordVersions({ db, now = () => new Date(), timeZone, notifyChange }: VersionDeps) {
  const when = (at: Date) => clockTimeIn(timeZone, at);

  /** The record's versions, oldest first, with the restore notes paired to the save they made. */
  async function history(kind: VersionedKind, id: string): Promise<VersionRow[]> {
    const rows = await db
      .select({ id: auditLog.id, at: auditLog.at, by: auditLog.actorEmail, action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, kind), eq(auditLog.entityId, id), inArray(auditLog.action, [...SAVES[kind].map((a) => `${kind}.${a}`), `${kind}.restore`])))
      .orderBy(asc(auditLog.at));
    // A banner's rows hold the variant's slide list.
    const stateOf = (value: unknown) => (kind === "banner" ? { slides: value } : value) as Snapshot;
    // A restore's row comes after the save it made (same transaction, maybe the same millisecond).
    const isRestore = (r: { action: string }) => (r.action === `${kind}.restore` ? 1 : 0);
    rows.sort((a, b) => a.at.getTime() - b.at.getTime() || isRestore(a) - isRestore(b));
    const versions: VersionRow[] = [];
    const first = rows.find((r) => r.action !== `${kind}.restore`);
    if (first && first.action !== `${kind}.create` && first.before) versions.push({ id: ORIGINAL_VERSION, at: first.at, by: null, state: stateOf(first.before), restoredFrom: null });
    for (const row of rows) {
      if (row.action === `${kind}.restore`) {
        // Written in the restore's transaction just after its save: it names the newest version.
        const restored = (row.after as { version?: string } | null)?.version ?? null;
        if (versions.length && restored) versions[versions.length - 1].restoredFrom = restored;
      } else if (row.after) {
        versions.push({ id: row.id, at: row.at, by: row.by, state: stateOf(row.after), restoredFrom: null });
      }
    }
    return versions;
  }

  /** A version's time on the museum's clock, to the minute; two versions in one minute are told apart by their seconds. */
  function timeOf(versions: VersionRow[], v: VersionRow): string {
    const i = versions.indexOf(v);
    // The record as first recorded carries the time of the first change: it is no neighbour in time.
    const real = (o: VersionRow | undefined) => o && o.id !== ORIGINAL_VERSION;
    const sameMinute = real(v) && [versions[i - 1], versions[i + 1]].some((o) => real(o) && when(o!.at) === when(v.at));
    return sameMinute ? clockTimeIn(timeZone, v.at, { seconds: true }) : when(v.at);
  }

  function summaryOf(kind: VersionedKind, versions: VersionRow[], i: number): VersionSummary {
    const v = versions[i];
    const restored = v.restoredFrom ? versions.find((o) => o.id === v.restoredFrom) : undefined;
    return {
      id: v.id,
      when: timeOf(versions, v),
      by: v.by,
      changed: changedLabels(kind, v.state, i > 0 ? versions[i - 1].state : null),
      created: i === 0 && v.id !== ORIGINAL_VERSION,
      current: i === versions.length - 1,
      note: restored ? restoreSummary(versions, restored) : null,
    };
  }

  function restoreSummary(versions: VersionRow[], v: VersionRow): string {
    return v.by ? `Restored the version of ${timeOf(versions, v)} by ${v.by}` : "Restored the version from before the first recorded change";
  }

  /** Names for the ids an exhibit version holds (teams, categories, enshrinees), as they are called now. */
  async function namesFor(state: Snapshot): Promise<Map<string, string>> {
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : typeof list === "string" ? [list] : []);
    const [t, c, e] = await Promise.all([
      ids(state.teamId).length ? db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, ids(state.teamId))) : [],
      ids(state.categoryId).length ? db.select({ id: categories.id, name: categories.categoryName }).from(categories).where(inArray(categories.id, ids(state.categoryId))) : [],
      ids(state.enshrineeIds).length ? db.select({ id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees).where(inArray(enshrinees.id, ids(state.enshrineeIds))) : [],
    ]);
    return new Map([...t, ...c, ...e].map((r) => [r.id, r.name]));
  }

  function shown(kind: VersionedKind, state: Snapshot, field: string, names: Map<string, string>): string {
    const value = fieldValue(kind, state, field);
    if (field === "teamId" || field === "categoryId") return names.get(String(value)) ?? `(deleted since: ${String(value)})`;
    if (field === "enshrineeIds") return (value as string[]).map((id) => names.get(id) ?? "(an enshrinee deleted since)").join(", ") || "none";
    if (field === "photos") return (value as { file: string; alt: string }[]).map((p, i) => `${i + 1}. ${p.alt} (${p.file})`).join("\n") || "none";
    if (typeof value === "boolean") return value ? "Yes" : "No";
    if (value === null || value === undefined || value === "") return "(empty)";
    return String(value);
  }

  /** A banner version's slides, one field each, marked when the version changed it. */
  function slideFields(state: Snapshot, changed: string[]): VersionField[] {
    const slides = slidesIn(state);
    if (!slides.length) return [{ label: "Slides", value: "none", changed: changed.length > 0, kept: false }];
    return slides.map((s, i) => ({
      label: `Slide ${i + 1}`,
      value: [s.alt, `Image: ${s.file} (${s.width} × ${s.height})`, `Status: ${publicationLabel(s.publishAt === null ? null : new Date(s.publishAt), now(), timeZone)}`].join("\n"),
      changed: changed.some((c) => c.startsWith(`Slide ${i + 1} `)),
      kept: false,
    }));
  }

  return {
    /** The record's versions, newest first (empty when nothing was recorded yet). */
    async list(kind: VersionedKind, id: string): Promise<VersionSummary[]> {
      const versions = await history(kind, id);
      return versions.map((_, i) => summaryOf(kind, versions, i)).reverse();
    },

    /** One version's fields, each marked when it differs from the version before. */
    async get(kind: VersionedKind, id: string, versionId: string): Promise<VersionDetail | null> {
      const versions = await history(kind, id);
      const i = versions.findIndex((v) => v.id === versionId);
      if (i < 0) return null;
      const state = versions[i].state;
      const summary = summaryOf(kind, versions, i);
      if (kind === "banner") return { ...summary, title: titleOf(kind, state, id), fields: slideFields(state, summary.changed) };
      const names = kind === "exhibit" ? await namesFor(state) : new Map<string, string>();
      const currentState = versions[versions.length - 1].state;
      const fields = Object.entries(FIELDS[kind]).map(([field, label]) => {
        const longText = LONG_TEXT_FIELDS.has(field);
        const value = longText ? readable(String(fieldValue(kind, state, field) ?? "")) || "(empty)" : shown(kind, state, field, names);
        // An older version's long text: what differs from the current one, word by word.
        const difference = longText && !summary.current ? textDifference(String(fieldValue(kind, state, field) ?? ""), String(fieldValue(kind, currentState, field) ?? "")) : undefined;
        return { label, value, changed: summary.changed.includes(label), kept: kind === "exhibit" && EXHIBIT_PHOTO_FIELDS.has(field), ...(difference ? { difference } : {}) };
      });
      return { ...summary, title: titleOf(kind, state, id), fields };
    },

    /**
     * Saves the version's values as the record's newest version, the way the edit form saves,
     * and records which version came back; both in one transaction.
     */
    async restore(actor: Actor, kind: VersionedKind, id: string, versionId: string): Promise<Saved> {
      const versions = await history(kind, id);
      const version = versions.find((v) => v.id === versionId);
      if (!version) return { ok: false, message: "That version does not exist." };
      if (version === versions[versions.length - 1]) return { ok: false, message: "This is already the current version: nothing was changed." };
      const state = version.state;
      /** The input's fields from the version; one the version lacks (a newer field) keeps its current value. */
      const pick = <T extends object>(fields: Partial<Record<keyof T, string>>, current: T): T => {
        const input = {} as T;
        for (const field of Object.keys(fields) as (keyof T)[]) {
          const value = fieldValue(kind, state, field as string);
          input[field] = value === undefined ? current[field] : (value as T[keyof T]);
        }
        return input;
      };
      const summary = restoreSummary(versions, version);
      const saved = await transactionRetrying(db, async (tx) => {
        // The save functions as the edit form calls them, inside this transaction; their change
        // notifications go out with it (on PGlite, a notification outside it would wait for it).
        const inTx = tx as unknown as Database;
        const writes = createCollectionWrites({ db: inTx, now, notifyChange: () => notifyChange(inTx) });
        let outcome: Saved;
        if (kind === "banner") {
          // The variant's slides as the version held them, each with its status (decision 030's addendum).
          const slides = slidesIn(state).map((s) => ({ ...s, publishAt: s.publishAt === null ? null : new Date(s.publishAt) }));
          outcome = await writes.banner.replace(actor, id === "mobile" ? "mobile" : "desktop", slides);
        } else if (kind === "team") {
          const current = await writes.teams.get(id);
          if (!current) return { ok: false, message: "This team no longer exists." } as Saved;
          outcome = await writes.teams.save(actor, id, pick<TeamInput>(TEAM_FIELDS, current));
        } else if (kind === "category") {
          const current = await writes.categories.get(id);
          if (!current) return { ok: false, message: "This category no longer exists." } as Saved;
          outcome = await writes.categories.save(actor, id, pick<CategoryInput>(CATEGORY_FIELDS, current));
        } else if (kind === "enshrinee") {
          const current = await writes.enshrinees.get(id);
          if (!current) return { ok: false, message: "This enshrinee no longer exists." } as Saved;
          outcome = await writes.enshrinees.save(actor, id, pick<EnshrineeInput>(ENSHRINEE_FIELDS, current));
        } else {
          const current = await writes.exhibits.get(id);
          if (!current) return { ok: false, message: "This exhibit no longer exists." } as Saved;
          const restored = pick<ExhibitInput>(EXHIBIT_FIELDS, { ...current, descriptionHtml: current.descriptionHtml ?? current.description });
          // The photos stay as the Photos page left them (decision 030).
          outcome = await writes.exhibits.save(actor, id, { ...restored, thumbnail: current.thumbnail, thumbnailAlt: current.thumbnailAlt, matchingPhoto: current.matchingPhoto, matchingPhotoAlt: current.matchingPhotoAlt });
        }
        if (!outcome.ok) return outcome;
        await recordAudit(tx, actor, { action: `${kind}.restore`, entityType: kind, entityId: id, summary: `${summary} (${titleOf(kind, state, id)})`, after: { version: version.id } }, now());
        return { ok: true, id, message: `${summary}.` } as Saved;
      });
      // This process's caches forget now; the others on the notification, when it committed.
      if (saved.ok) await notifyChange();
      return saved;
    },
  };
}

