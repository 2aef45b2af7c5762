/**
 * /admin/banner: the home page's carousel, desktop and mobile slides: add, edit, move up or
 * down, remove (asked first; the slide goes to the Trash). Each change rewrites that variant's order in one transaction with its audit row.
 * A slide's edit saved against a banner changed since comes back as typed, with the fields that
 * differ to choose (decision 029); each variant lists its versions (decision 030).
 * An Add form carries its image file (decision 039): "Upload image" stores it and sends the
 * form back as typed with the image's name and size filled in, nothing saved; without JavaScript too.
 */
import { Form, redirect, useActionData, useSearchParams } from "react-router";
import { ConfirmTrash } from "~/components/admin/TrashConfirm";
import type { Route } from "./+types/banner";
import { ConsoleHeading, ConsoleNotice, DangerButton, inputProps, NOTICES, PreviewButton, PreviewLink, PrimaryButton, SaveBar } from "~/components/admin/ConsoleUi";
import { EditConflict } from "~/components/admin/EditConflict";
import { VersionHistory } from "~/components/admin/VersionHistory";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { UPLOAD_NOTICES } from "./upload-notices";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { bannerSlideSchema, formObject, uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, typedValues, type ConsoleResult } from "./guard.server";
import { formVersion, resolvedForm } from "./edit-conflict.server";
import { readImageForm } from "./image-form.server";
import { withImageSize } from "./image-size.server";
import { MediaPicker } from "~/components/admin/MediaPicker";
import { publishFieldsOf, withPublication } from "./publication.server";
import { PublishFields, type PublishFieldsValue } from "~/components/admin/PublishFields";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "banner");
  const url = new URL(request.url);
  const restored = NOTICES[url.searchParams.get("notice") ?? ""];
  const notice = restored ? { ok: true, message: restored } : null;
  const { desktop, mobile, versions } = await context.services.admin.collection.banner.list();
  const history = context.services.admin.versions;
  const withFields = (slides: typeof desktop) => slides.map((slide) => ({ ...slide, publish: publishFieldsOf(context, slide.publishAt) }));
  const [desktopHistory, mobileHistory] = await Promise.all([history.list("banner", "desktop"), history.list("banner", "mobile")]);
  return { desktop: withFields(desktop), mobile: withFields(mobile), versions, history: { desktop: desktopHistory, mobile: mobileHistory }, newSlide: publishFieldsOf(context, undefined), notice };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "banner");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  // "Take theirs" choices after a refused edit replace the typed values (decision 029).
  const read = await readImageForm(context, request, "image", "banners");
  const form = resolvedForm(read.form);
  // An image chosen in an Add form (decision 039): its name and size go into the form.
  if (read.image) for (const [name, value] of [["file", read.image.key], ["width", String(read.image.width)], ["height", String(read.image.height)]]) form.set(name, value);
  if (read.refused) {
    const message = UPLOAD_NOTICES[read.refused]?.message ?? UPLOAD_NOTICES.broken.message;
    return consoleAnswer({ ok: false, message, errors: { file: message }, values: typedValues(form) });
  }
  const intent = formText(form, "intent");
  if (intent === UPLOAD_INTENT) {
    if (!read.image) return consoleAnswer({ ok: false, message: UPLOAD_NOTICES.empty.message, errors: { file: UPLOAD_NOTICES.empty.message }, values: typedValues(form) });
    return consoleAnswer({ ok: true, message: "Image uploaded: add it as a slide below.", values: typedValues(form) });
  }
  const variant = formText(form, "variant") === "mobile" ? "mobile" : "desktop";
  // Width and height are the image file's own (decision 061), read on the server, never typed.
  if (intent === "add" || intent === "update") {
    const missing = await withImageSize(context, form);
    if (missing) return consoleAnswer({ ok: false, message: missing, errors: { file: missing }, values: typedValues(form) });
  }
  const banner = context.services.admin.collection.banner;
  const actor = actorOf(staff);
  const version = formVersion(form);
  if (intent === "add") {
    const checked = withPublication(context, form, bannerSlideSchema.safeParse(formObject(form)));
    if (!checked.ok) return checked.answer;
    const saved = await banner.edit(actor, variant, { kind: "add", slide: checked.value }, version);
    return consoleAnswer(saved.ok ? saved : { ...saved, values: typedValues(form) });
  }
  // Every other action names its slide by id, never by its place on a page that may be out of date.
  const slide = uuidSchema.safeParse(formText(form, "slide"));
  if (!slide.success) return consoleAnswer({ ok: false, message: "That slide no longer exists." });
  const slideId = slide.data;
  if (intent === "up" || intent === "down") return consoleAnswer(await banner.edit(actor, variant, { kind: "move", slideId, by: intent === "up" ? -1 : 1 }, version));
  // Removing asks first (TrashConfirm.tsx), naming the slide by its id; the removed slide waits in the Trash.
  if (intent === "remove" && formText(form, "confirm") !== "yes") return redirect(`/admin/banner?remove=${slideId}`);
  if (intent === "remove") return consoleAnswer(await banner.edit(actor, variant, { kind: "remove", slideId }, version));
  if (intent === "update") {
    const checked = withPublication(context, form, bannerSlideSchema.safeParse(formObject(form)));
    if (!checked.ok) return checked.answer;
    const saved = await banner.edit(actor, variant, { kind: "update", slideId, slide: checked.value }, version);
    // Refused: the slide's form comes back as typed (its `slide` and `variant` say which form).
    return consoleAnswer(saved.ok ? saved : { ...saved, values: typedValues(form) });
  }
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

/** The Add form's "Upload image" button (decision 039). */
const UPLOAD_INTENT = "upload-image";

type Slide = Route.ComponentProps["loaderData"]["desktop"][number];

/** The slide form's typed fields, by form name, as an edit conflict shows them. */
const SLIDE_LABELS = { file: "Image", alt: "Description", width: "Width", height: "Height" };

/** The image (chosen from the library; its width and height are read from the file when saved) and its description. */
function SlideFields({ slide, prefix, error }: { slide?: { file: string; alt?: string; width?: number | string; height?: number | string }; prefix: string; error?: string }) {
  return (
    <>
      <div className="sm:col-span-3">
        <MediaPicker id={`${prefix}-file`} name="file" label="Image" value={slide?.file ?? ""} error={error} altField={`${prefix}-alt`} publicOnly />
        {slide?.width && slide.height ? <p className="mt-1 text-sm text-stone-700">{`${slide.width} × ${slide.height} px (read from the file)`}</p> : null}
      </div>
      <label className="text-sm">
        Description
        <input {...inputProps(`${prefix}-alt`)} name="alt" defaultValue={slide?.alt} required />
      </label>
    </>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

function Variant({
  variant,
  slides,
  version,
  newSlide,
  result,
  history,
}: {
  variant: "desktop" | "mobile";
  slides: Slide[];
  version: string;
  newSlide: PublishFieldsValue;
  result: Answer;
  history: Route.ComponentProps["loaderData"]["history"]["desktop"];
}) {
  /** The answer for this slide's form (a refused edit names its slide), else undefined. */
  const answerFor = (s: Slide) => (result && "values" in result && result.values?.slide === s.id && result.values.variant === variant ? result : undefined);
  /** What this variant's Add form sent (no `slide`: an upload, a refusal), shown in it again. */
  const added = result && "values" in result && result.values?.variant === variant && !result.values.slide ? result.values : undefined;
  return (
    <section className="mb-10" aria-labelledby={`${variant}-slides-heading`}>
      <h2 id={`${variant}-slides-heading`} className="mb-3 text-xl font-bold capitalize">
        {variant} slides
      </h2>
      <ol className="space-y-4">
        {slides.map((s, i) => {
          const answer = answerFor(s);
          const typed = answer?.values ?? {};
          return (
          <li key={s.id} className="rounded border border-stone-300 p-3">
            <p className="mb-2 font-semibold">
              Slide {i + 1}: {s.alt}
            </p>
            {/* A new banner version remounts the form: after a refused edit it shows what was typed. */}
            <Form method="post" className="grid gap-2 sm:grid-cols-4" key={version}>
              <input type="hidden" name="variant" value={variant} />
              <input type="hidden" name="slide" value={s.id} />
              <div className="sm:col-span-4">
                <EditConflict result={answer} version={version} labels={SLIDE_LABELS} />
              </div>
              <SlideFields slide={{ file: typed.file ?? s.file, alt: typed.alt ?? s.alt, width: typed.width ?? s.width, height: typed.height ?? s.height }} prefix={`${variant}-${s.id}`} error={answer?.errors?.file} />
              <div className="sm:col-span-4">
                <PublishFields initial={s.publish} typed={typed} prefix={`${variant}-${s.id}-`} />
              </div>
              <SaveBar className="gap-x-2 sm:col-span-4">
                <PrimaryButton name="intent" value="update">
                  Save slide {i + 1}
                </PrimaryButton>
                <PreviewButton to="/admin/banner/preview" name="intent" value="update">
                  Preview<span className="sr-only"> slide {i + 1}</span> without saving
                </PreviewButton>
                <button type="submit" name="intent" value="up" disabled={i === 0} className="rounded border border-ink px-3 py-1 disabled:opacity-40">
                  Move up<span className="sr-only"> slide {i + 1}</span>
                </button>
                <button type="submit" name="intent" value="down" disabled={i === slides.length - 1} className="rounded border border-ink px-3 py-1 disabled:opacity-40">
                  Move down<span className="sr-only"> slide {i + 1}</span>
                </button>
                <DangerButton name="intent" value="remove">
                  Remove<span className="sr-only"> slide {i + 1}</span>
                </DangerButton>
              </SaveBar>
            </Form>
          </li>
          );
        })}
      </ol>
      {/* A new answer for this form (an upload, a refusal) shows it as sent, the image filled in. */}
      <Form method="post" encType="multipart/form-data" key={JSON.stringify(added ?? null)} className="mt-4 grid gap-2 rounded border border-dashed border-stone-500 p-3 sm:grid-cols-4">
        {/* Enter in a field adds the slide (the first submit button is the default one), never uploads. */}
        <button type="submit" name="intent" value="add" className="hidden" tabIndex={-1} aria-hidden="true">
          Add slide
        </button>
        <input type="hidden" name="variant" value={variant} />
        <p className="font-semibold sm:col-span-4">Add a {variant} slide</p>
        <div className="flex flex-wrap items-end gap-3 text-sm sm:col-span-4">
          <div>
            <label htmlFor={`${variant}-new-image`} className="block font-semibold">
              Upload a {variant} slide image
            </label>
            <input id={`${variant}-new-image`} name="image" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby={`${variant}-new-image-hint`} />
          </div>
          <button type="submit" name="intent" value={UPLOAD_INTENT} formNoValidate className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
            Upload image<span className="sr-only"> for the new {variant} slide</span>
          </button>
          <p id={`${variant}-new-image-hint`} className="w-full text-stone-700">
            JPEG, PNG or WebP; 15 MB and 40 megapixels at most; location and camera data are removed. The image goes into this form (it is also in the media library); nothing is added until you add the slide.
          </p>
        </div>
        <SlideFields prefix={`${variant}-new`} slide={added ? { file: added.file ?? "", alt: added.alt, width: added.width, height: added.height } : undefined} error={added && result && "errors" in result ? result.errors?.file : undefined} />
        <div className="sm:col-span-4">
          <PublishFields initial={newSlide} prefix={`${variant}-new-`} typed={added} />
        </div>
        <SaveBar className="sm:col-span-4">
          <PrimaryButton name="intent" value="add">
            Add slide
          </PrimaryButton>
          <PreviewButton to="/admin/banner/preview" name="intent" value="add">
            Preview<span className="sr-only"> the new {variant} slide</span> without saving
          </PreviewButton>
        </SaveBar>
      </Form>
      <VersionHistory
        versions={history}
        base={`/admin/banner/${variant}`}
        title={`Versions of the ${variant} banner`}
        headingId={`${variant}-versions-heading`}
        covers={`A version is the whole ${variant} banner: its slides in order, with their images, descriptions, sizes and status.`}
      />
    </section>
  );
}

/**
 * The slide a Remove button asked about (`?remove=<slide id>`), shown with the confirmation: the
 * slide itself wherever it is now, or a plain note when it is gone.
 */
function RemoveConfirm({ desktop, mobile }: { desktop: Slide[]; mobile: Slide[] }) {
  const [params] = useSearchParams();
  const id = params.get("remove");
  if (!id) return null;
  for (const [variant, slides] of [["desktop", desktop], ["mobile", mobile]] as const) {
    const at = slides.findIndex((s) => s.id === id);
    if (at >= 0) return <ConfirmTrash what={`${variant} slide ${at + 1} (${slides[at].alt})`} fields={{ intent: "remove", variant, slide: id }} action="/admin/banner" cancelTo="/admin/banner" />;
  }
  return <ConsoleNotice result={{ ok: false, message: "That slide no longer exists." }} />;
}

export default function Banner({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  // An image upload is not a save: it does not end the unsaved-changes question.
  const uploading = result && "values" in result && result.values?.intent === UPLOAD_INTENT;
  return (
    <section>
      <ConsoleHeading>Home banner</ConsoleHeading>
      <ConsoleNotice result={result ?? loaderData.notice} />
      {result ? null : <RemoveConfirm desktop={loaderData.desktop} mobile={loaderData.mobile} />}
      <p className="mb-4">
        <PreviewLink to="/admin/banner/preview" />
      </p>
      {/* A slide's typed changes ask before the page is left; a save (answered in place) ends the question, an image upload does not. */}
      <UnsavedChanges saved={uploading ? null : result}>
        <Variant variant="desktop" slides={loaderData.desktop} version={loaderData.versions.desktop} newSlide={loaderData.newSlide} result={result} history={loaderData.history.desktop} />
        <Variant variant="mobile" slides={loaderData.mobile} version={loaderData.versions.mobile} newSlide={loaderData.newSlide} result={result} history={loaderData.history.mobile} />
      </UnsavedChanges>
    </section>
  );
}

export function meta() {
  return [{ title: "Home banner | Staff console" }];
}
