/**
 * /admin/media: the media library (decision 061). Every image the museum holds, newest first, 24
 * a page: its preview (a small rendition, loaded lazily), pixel size and file size, its
 * description (editable here) and the records using it. Search by file name or description, a
 * filter for images without a description, several files uploaded at once (a refused file is
 * named with its reason, the others are saved), and Delete, refused with where the image is used
 * while any record (or a Trash entry) names it. With `?pick=<field>&return=<form page>` it is the
 * forms' picker without JavaScript: "Use this image" goes back to the form with the image chosen;
 * the forms' dialog loads the same data.
 */
import { useRef, useState, type DragEvent } from "react";
import { Form, Link, redirect, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/media";
import { ConsoleHeading, ConsoleNotice, KeepSort, Pager } from "~/components/admin/ConsoleUi";
import { MediaPreview, mediaSize, pickedAddress } from "~/components/admin/MediaPicker";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { singleLineText } from "~/shared/text-fields";
import { MAX_IMAGE_ALT } from "~/shared/images";
import { actorOf, consoleAnswer, formText, requireConsole, safeReturnPath, type ConsoleResult } from "./guard.server";
import { pageParam, searchOf, searchParam } from "./list-query";
import { readLibraryPost, uploadMessage } from "./media-form.server";

const PAGE_SIZE = 24;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const url = new URL(request.url);
  const q = searchParam(url);
  const missing = url.searchParams.get("missing") === "1";
  // Public fields (a logo, a banner slide, a portrait) list only images visitors may see.
  const publicOnly = url.searchParams.get("public") === "1";
  const page = pageParam(url);
  const { rows, total, withoutDescription } = await context.services.admin.media.list({ q, missing, publicOnly, page, pageSize: PAGE_SIZE });
  const pick = url.searchParams.get("pick");
  return {
    rows: rows.map((r) => ({ ...r, addedAt: r.addedAt.toISOString() })),
    total,
    withoutDescription,
    query: { q, missing, page, pageSize: PAGE_SIZE },
    search: searchOf(url),
    pick: pick && /^[A-Za-z0-9_-]{1,120}$/.test(pick) ? { field: pick, returnTo: safeReturnPath(url.searchParams.get("return"), "/admin") } : null,
    confirmDelete: url.searchParams.get("delete"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const actor = actorOf(staff);
  const { form, upload } = await readLibraryPost(context, request, actor);
  const intent = formText(form, "intent");
  const media = context.services.admin.media;
  if (upload) return consoleAnswer({ ok: upload.refused.length === 0 && upload.saved.length > 0, message: uploadMessage(upload) }, upload.saved.length ? 200 : 400);
  const key = formText(form, "key");
  if (intent === "describe") {
    const alt = singleLineText("Description", { max: MAX_IMAGE_ALT }).safeParse(formText(form, "alt"));
    if (!alt.success) return consoleAnswer({ ok: false, message: alt.error.issues[0]?.message ?? "Please check the description.", errors: { [`alt-${key}`]: alt.error.issues[0]?.message ?? "" } });
    const seen = form.get("seen");
    const done = await media.describe(actor, key, alt.data ?? "", typeof seen === "string" ? seen : undefined);
    return consoleAnswer(done, done.ok ? 200 : done.status);
  }
  if (intent === "delete") {
    const image = await media.get(key);
    if (!image) return consoleAnswer({ ok: false, message: "That image is no longer in the media library." }, 404);
    // Asked first, unless the answer is already known: an image in use is refused at once, with where.
    if (!image.uses.length && formText(form, "confirm") !== "yes") return redirect(`/admin/media?delete=${encodeURIComponent(key)}`);
    const done = await media.remove(actor, key);
    return consoleAnswer(done, done.ok ? 200 : done.status);
  }
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

function Uses({ uses }: { uses: Row["uses"] }) {
  if (!uses.length) return <p className="text-sm text-stone-700">Not used</p>;
  return (
    <ul className="space-y-0.5 text-sm">
      {uses.map((u) => (
        <li key={`${u.href} ${u.label}`}>
          <Link to={u.href} className="text-blue-800 underline">
            {u.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function UploadForm() {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [count, setCount] = useState(0);
  // Files dropped on the box go into the file input, so the same form sends them (also a button press).
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!input.current || !event.dataTransfer.files.length) return;
    input.current.files = event.dataTransfer.files;
    setCount(event.dataTransfer.files.length);
  };
  return (
    <Form method="post" encType="multipart/form-data" className="mb-6">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        className={`flex flex-wrap items-end gap-3 rounded border-2 border-dashed p-3 text-sm ${over ? "border-blue-800 bg-blue-50" : "border-stone-500"}`}
      >
        <div className="min-w-0">
          <label htmlFor="media-files" className="block font-semibold">
            Upload images (or drop them here)
          </label>
          <input ref={input} id="media-files" name="files" type="file" multiple accept="image/jpeg,image/png,image/webp" aria-describedby="media-files-hint" onChange={(e) => setCount(e.currentTarget.files?.length ?? 0)} className="max-w-full" />
        </div>
        <button type="submit" name="intent" value="upload" className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
          Upload{count > 1 ? ` ${count} images` : ""}
        </button>
        <p id="media-files-hint" className="w-full text-stone-700">
          JPEG, PNG or WebP; up to 12 files at once, 15 MB and 40 megapixels each; location and camera data are removed. A file that is refused is named with the reason; the others are saved.
        </p>
      </div>
    </Form>
  );
}

function DeleteConfirm({ keyName }: { keyName: string }) {
  return (
    <div role="alertdialog" aria-labelledby="media-delete-title" className="mb-4 rounded border border-red-700 bg-red-50 p-3">
      <p id="media-delete-title" className="font-semibold">
        {`Delete ${keyName} for good? No record uses it; it cannot be brought back.`}
      </p>
      <Form method="post" className="mt-2 flex gap-3">
        <input type="hidden" name="key" value={keyName} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" name="intent" value="delete" className="rounded bg-red-800 px-3 py-1 font-semibold text-white">
          Delete the image
        </button>
        <Link to="/admin/media" className="self-center font-semibold text-blue-800 underline">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

function ImageCard({ image, pick, errors }: { image: Row; pick: { field: string; returnTo: string } | null; errors: Record<string, string> }) {
  const name = image.key.split("/").pop() ?? image.key;
  const altId = `alt-${image.key}`;
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded border border-stone-300 p-3" data-testid="media-card">
      <MediaPreview file={image.key} alt={image.alt} />
      <p className="break-all text-sm font-semibold" title={image.key}>
        {name}
      </p>
      <p className="text-sm text-stone-700">{mediaSize(image)}</p>
      {pick ? (
        <>
          <p className="text-sm">{image.alt || <em>No description</em>}</p>
          <Link to={pickedAddress(pick.returnTo, pick.field, image.key)} className="rounded bg-ink px-3 py-1 text-center font-semibold text-gold">
            Use this image<span className="sr-only"> ({name})</span>
          </Link>
        </>
      ) : (
        <>
          <Form method="post" className="space-y-1">
            <input type="hidden" name="key" value={image.key} />
            <input type="hidden" name="seen" value={image.alt} />
            <label htmlFor={altId} className="block text-sm font-semibold">
              Description
            </label>
            <input id={altId} name="alt" defaultValue={image.alt} maxLength={MAX_IMAGE_ALT} aria-invalid={errors[altId] ? true : undefined} className="w-full rounded border border-stone-500 px-2 py-1 text-sm" />
            {errors[altId] ? <p className="text-sm font-semibold text-red-800">{errors[altId]}</p> : null}
            <button type="submit" name="intent" value="describe" className="rounded border border-ink px-2 py-0.5 text-sm font-semibold">
              Save description<span className="sr-only"> of {name}</span>
            </button>
          </Form>
          <div>
            <p className="text-sm font-semibold">Used by</p>
            <Uses uses={image.uses} />
          </div>
          <Form method="post">
            <input type="hidden" name="key" value={image.key} />
            <button type="submit" name="intent" value="delete" className="text-sm font-semibold text-red-800 underline">
              Delete<span className="sr-only"> {name}</span>
            </button>
          </Form>
        </>
      )}
    </li>
  );
}

export default function MediaLibraryPage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { rows, total, withoutDescription, query, search, pick, confirmDelete } = loaderData;
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  return (
    <section>
      <ConsoleHeading>{pick ? "Choose an image" : "Media library"}</ConsoleHeading>
      <ConsoleNotice result={result} />
      {confirmDelete && !result ? <DeleteConfirm keyName={confirmDelete} /> : null}
      {pick ? (
        <p className="mb-4">
          <Link to={pick.returnTo} className="font-semibold text-blue-800 underline">
            Back to the form without choosing
          </Link>
        </p>
      ) : (
        <UploadForm />
      )}
      <form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <KeepSort />
        {pick ? (
          <>
            <input type="hidden" name="pick" value={pick.field} />
            <input type="hidden" name="return" value={pick.returnTo} />
            {params.get("public") === "1" ? <input type="hidden" name="public" value="1" /> : null}
          </>
        ) : null}
        <div>
          <label htmlFor="media-q" className="block font-semibold">
            Search by file name or description
          </label>
          <input id="media-q" name="q" type="search" defaultValue={query.q ?? ""} className="rounded border border-stone-500 px-2 py-1" />
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="missing" value="1" defaultChecked={query.missing} /> {`Only images without a description (${withoutDescription.toLocaleString("en-US")})`}
        </label>
        <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Search
        </button>
        {params.get("q") || query.missing ? (
          <Link to={pick ? `?pick=${pick.field}&return=${encodeURIComponent(pick.returnTo)}` : "/admin/media"} className="self-center font-semibold text-blue-800 underline">
            Show all
          </Link>
        ) : null}
      </form>
      {rows.length ? (
        <ul className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Images">
          {rows.map((image) => (
            <ImageCard key={image.key} image={image} pick={pick} errors={errors} />
          ))}
        </ul>
      ) : (
        <p>{query.q || query.missing ? "No image matches." : "The library is empty: upload images above."}</p>
      )}
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Media library | Staff console" }];
}
