/**
 * The site's text rules (account-schemas.ts) as classic Zod schemas, for server and staff-console
 * code that chains Zod's methods onto a field (`.regex`, `.pipe`, `.optional`, `.catch`). The
 * patterns and messages are account-schemas.ts's own; the public forms use those `zod/mini`
 * builders so the browser does not load classic Zod (decision 016).
 */
import { z } from "zod";
import { MULTI_LINE, SINGLE_LINE, type TextOptions, WELL_FORMED } from "./account-schemas";
import { TEXT_RULE_MESSAGES as T } from "./messages";

/** A one-line text field: no control characters or lone surrogates, trimmed, at most `max`. */
export function singleLineText(field: string, { max, required }: TextOptions) {
  const text = z
    .string({ message: required ?? T.missing(field) })
    .regex(SINGLE_LINE, T.controlCharacters(field))
    .regex(WELL_FORMED, T.brokenCharacters(field))
    .trim();
  return (required ? text.min(1, required) : text).max(max, T.tooLong(field, max));
}

/** A text over several lines: line breaks and tabs allowed, other controls refused, trimmed, at most `max`. */
export function multiLineText(field: string, { max, required }: TextOptions) {
  const text = z
    .string({ message: required ?? T.missing(field) })
    .regex(MULTI_LINE, T.messageControlCharacters(field))
    .regex(WELL_FORMED, T.brokenCharacters(field))
    .trim();
  return (required ? text.min(1, required) : text).max(max, T.tooLong(field, max));
}
