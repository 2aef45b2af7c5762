/**
 * The console's side of drafts and scheduled publishing (decision 032): the status fields'
 * initial values for a stored `publish_at`, and the publication a form sent, on the museum's clock.
 */
import type { AppLoadContext } from "react-router";
import type { z } from "zod";
import { fieldErrors } from "~/shared/form-errors";
import type { Publication } from "~/shared/publication";
import { consoleAnswer, typedValues } from "./guard.server";
import type { PublishFieldsValue } from "~/components/admin/PublishFields";
import { publicationFields, publicationFromForm, publicationLabel } from "~/shared/publication";

/** The status fields of a record (undefined: a new one, which starts as a draft). */
export function publishFieldsOf(context: AppLoadContext, publishAt: Date | null | undefined): PublishFieldsValue {
  const timeZone = context.services.config.MUSEUM_TIME_ZONE;
  const now = context.services.now();
  return { ...publicationFields(publishAt, now, timeZone), label: publishAt === undefined ? null : publicationLabel(publishAt, now, timeZone), timeZone };
}

/** The publication the form sent, or its fields' messages. */
export function publicationOf(context: AppLoadContext, form: FormData) {
  return publicationFromForm(form, context.services.config.MUSEUM_TIME_ZONE, context.services.now());
}

/**
 * A form's fields (`parsed` by its schema) and its status fields together: the values with their
 * publication, or the console's answer marking every wrong field of both.
 */
export function withPublication<T>(context: AppLoadContext, form: FormData, parsed: z.ZodSafeParseResult<T>) {
  const publication = publicationOf(context, form);
  if (parsed.success && publication.ok) return { ok: true as const, value: { ...parsed.data, publication: publication.value as Publication | undefined } };
  const errors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...(publication.ok ? {} : publication.errors) };
  return { ok: false as const, answer: consoleAnswer({ ok: false, message: "Please correct the marked fields.", errors, values: typedValues(form) }) };
}

/** A console list's rows with their status ("Draft", "Scheduled for …", "Published") as `status`. */
export function withStatus<Row extends { publishAt: Date | null }>(context: AppLoadContext, rows: Row[]): (Row & { status: string })[] {
  const timeZone = context.services.config.MUSEUM_TIME_ZONE;
  const now = context.services.now();
  return rows.map((r) => ({ ...r, status: publicationLabel(r.publishAt, now, timeZone) }));
}
