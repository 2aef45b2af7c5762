/**
 * What the console shows of a record's versions (decision 030): shared by the server module that
 * reads them from the audit log (server/catalog/record-versions.ts) and the pages that show them.
 */

import type { TextChange } from "./edit-conflict";

/** The id of the oldest version: the record before its first recorded change. */
export const ORIGINAL_VERSION = "original";

export interface VersionSummary {
  id: string;
  /** On the museum's clock, with the zone ("2026-11-25 20:15 EST"). */
  when: string;
  /** The staff member's email, or null for the record as first recorded. */
  by: string | null;
  /** Labels of the fields this version changed from the one before it (none for the first). */
  changed: string[];
  created: boolean;
  current: boolean;
  /** "Restored the version of ..." when this version was a restore. */
  note: string | null;
}

export interface VersionField {
  label: string;
  value: string;
  changed: boolean;
  /** A long text of an older version: its word-level difference from the current text. */
  difference?: TextChange[];
  /** Not brought back by a restore (an exhibit's photos). */
  kept: boolean;
}

export interface VersionDetail extends VersionSummary {
  title: string;
  fields: VersionField[];
}

/** What changed, in words: "Created", the fields' labels, or that nothing did. */
export function changedText(v: Pick<VersionSummary, "id" | "created" | "changed">): string {
  if (v.id === ORIGINAL_VERSION) return "As first recorded, before any change in the console";
  if (v.created) return "Created";
  return v.changed.length ? v.changed.join(", ") : "No field changed";
}
