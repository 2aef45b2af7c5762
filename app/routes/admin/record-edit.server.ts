/**
 * The edit page's action shared by the console's simple records (teams, categories,
 * enshrinees): the role and rate-limit checks, then delete (refused while something depends on
 * the record: 409; asked first, then moved to the Trash) or validate and save, each ending in the
 * record's own address with a notice. A save against a record someone else saved since is refused
 * (409) with the form as typed and the fields that differ (decision 029).
 */
import { data, redirect, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { formObject, uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, typedValues, type ConsoleResult } from "./guard.server";
import { fieldErrors } from "~/shared/form-errors";
import { formRecordVersion, resolvedForm } from "./edit-conflict.server";
import { withPublication } from "./publication.server";

type Actor = ReturnType<typeof actorOf>;
type Saved = Awaited<ReturnType<AppLoadContext["services"]["admin"]["collection"]["teams"]["save"]>>;

export interface EditableRecords<Input> {
  save(actor: Actor, id: string | null, input: Input, expectedVersion?: number): Promise<Saved>;
  remove(actor: Actor, id: string): Promise<Saved>;
}

export async function saveOrDeleteRecord<Input>(o: {
  context: AppLoadContext;
  request: Request;
  /** The route's `:id` (`new` for a record not made yet). */
  id: string | undefined;
  records: EditableRecords<Input>;
  schema: z.ZodType<Input>;
  /** The records' list address, e.g. `/admin/teams`. */
  listPath: string;
  /** The form has the status fields (Draft / Scheduled / Published, decision 032). */
  publication?: boolean;
}) {
  const staff = requireConsole(o.context, o.request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(o.context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = resolvedForm(await o.request.formData());
  const id = o.id === "new" ? null : (o.id ?? null);
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  if (formText(form, "intent") === "delete" && id) {
    // Deleting asks first (TrashConfirm.tsx): without the confirmation's `confirm=yes`, the page asks.
    if (formText(form, "confirm") !== "yes") return redirect(`${o.listPath}/${id}?delete=confirm`);
    const done = await o.records.remove(actorOf(staff), id);
    return done.ok ? redirect(`${o.listPath}?notice=deleted`) : consoleAnswer(done, 409);
  }
  const parsed = o.schema.safeParse(formObject(form));
  let input: Input;
  if (o.publication) {
    const checked = withPublication(o.context, form, parsed);
    if (!checked.ok) return checked.answer;
    input = checked.value;
  } else {
    if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the marked fields.", errors: fieldErrors(parsed.error), values: typedValues(form) });
    input = parsed.data;
  }
  const saved = await o.records.save(actorOf(staff), id, input, formRecordVersion(form));
  return saved.ok ? redirect(`${o.listPath}/${saved.id}?notice=saved`) : consoleAnswer({ ...saved, values: typedValues(form) });
}
