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
import { formRecordVersion, resolvedForm, valuesWithTaken } from "./edit-conflict.server";
import { withPublication } from "./publication.server";
import { readImageForm } from "./image-form.server";
import { UPLOAD_NOTICES } from "./upload-notices";

type Actor = ReturnType<typeof actorOf>;
type Saved = Awaited<ReturnType<AppLoadContext["services"]["admin"]["collection"]["teams"]["save"]>>;

export interface EditableRecords<Input> {
  save(actor: Actor, id: string | null, input: Input, expectedVersion?: number): Promise<Saved>;
  remove(actor: Actor, id: string): Promise<Saved>;
}

export interface AttachedFile {
  read(): Promise<FormData>;
  answer(actor: Actor, form: FormData): Promise<ReturnType<typeof consoleAnswer> | null>;
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
  /**
   * The form carries an image file (decision 039): the file field `file` is stored under
   * `folder` and its name put into the text field `into`. With `intent=<uploadIntent>` nothing is
   * saved: the form comes back as typed, the new file filled in, with `uploaded`.
   */
  image?: { file: string; folder: "logos"; into: string; uploadIntent: string; uploaded: string };
  /**
   * The form carries a file the page stores itself (an enshrinee's portrait, decision 039):
   * `read` reads the post, `answer` answers the page's own intents and a refused file in place
   * (null: go on with the record's save or delete).
   */
  attached?: AttachedFile;
}) {
  const staff = requireConsole(o.context, o.request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(o.context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const id = o.id === "new" ? null : (o.id ?? null);
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  let form: FormData;
  if (o.image) {
    const read = await readImageForm(o.context, o.request, o.image.file, o.image.folder);
    form = resolvedForm(read.form);
    if (read.image) form.set(o.image.into, read.image.key);
    if (read.refused) {
      const message = UPLOAD_NOTICES[read.refused]?.message ?? UPLOAD_NOTICES.broken.message;
      return consoleAnswer({ ok: false, message, errors: { [o.image.into]: message }, values: typedValues(form) });
    }
    if (formText(form, "intent") === o.image.uploadIntent) {
      if (!read.image) return consoleAnswer({ ok: false, message: UPLOAD_NOTICES.empty.message, errors: { [o.image.into]: UPLOAD_NOTICES.empty.message }, values: typedValues(form) });
      return consoleAnswer({ ok: true, message: o.image.uploaded, values: typedValues(form) });
    }
  } else if (o.attached) {
    form = resolvedForm(await o.attached.read());
    const answered = await o.attached.answer(actorOf(staff), form);
    if (answered) return answered;
  } else {
    form = resolvedForm(await o.request.formData());
  }
  if (formText(form, "intent") === "delete" && id) {
    // Deleting asks first (TrashConfirm.tsx): without the confirmation's `confirm=yes`, the page asks.
    if (formText(form, "confirm") !== "yes") return redirect(`${o.listPath}/${id}?delete=confirm`);
    const done = await o.records.remove(actorOf(staff), id);
    return done.ok ? redirect(`${o.listPath}?notice=deleted`) : consoleAnswer({ ...done, deleteRefused: true }, 409);
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
  return saved.ok ? redirect(`${o.listPath}/${saved.id}?notice=${saved.merged?.length ? "merged" : "saved"}`) : consoleAnswer({ ...saved, values: valuesWithTaken(typedValues(form), saved) });
}
