/**
 * An enshrinee's portrait on their console page (decision 033): the current portrait, a
 * multipart form (it works without JavaScript) posted to /admin/enshrinees/:id/portrait with a
 * photo file and its description (the description alone when no file is chosen), and Remove.
 * Its own form beside the enshrinee's, so an upload does not send (or need) the other fields;
 * with JavaScript the page is not reloaded, so what was typed in the unsaved form stays.
 */
import { Form, useSearchParams } from "react-router";
import { imageUrl, THUMBNAIL_HEIGHT } from "~/shared/images";
import { ConsoleNotice } from "./ConsoleUi";

/** The outcome of a portrait upload, by the code the upload route redirects with. */
export const PORTRAIT_NOTICES: Record<string, { ok: boolean; message: string }> = {
  done: { ok: true, message: "Portrait saved." },
  described: { ok: true, message: "Portrait description saved." },
  removed: { ok: true, message: "Portrait removed." },
  alt: { ok: false, message: "Please describe the portrait for people who cannot see it: nothing was saved." },
  empty: { ok: false, message: "Please choose a photo file for the portrait." },
  "not-image": { ok: false, message: "The file is not a JPEG, PNG or WebP photo: nothing was saved." },
  damaged: { ok: false, message: "The file is damaged or incomplete: nothing was saved." },
  pixels: { ok: false, message: "The photo has more than 40 megapixels: nothing was saved." },
  "file-size": { ok: false, message: "The file is larger than 15 MB: nothing was saved." },
  "too-many": { ok: false, message: "One portrait at a time: nothing was saved." },
  "too-large": { ok: false, message: "The upload is larger than 64 MB: nothing was saved." },
  broken: { ok: false, message: "The upload was cut off or could not be read: nothing was saved." },
};

export function PortraitField({ enshrinee }: { enshrinee: { id: string; fullName: string; portrait: string | null; portraitAlt: string | null } | null }) {
  const [params] = useSearchParams();
  const notice = PORTRAIT_NOTICES[params.get("portrait") ?? ""] ?? null;
  if (!enshrinee) return <p className="mt-8 text-sm">Save the enshrinee first, then add a portrait.</p>;
  const action = `/admin/enshrinees/${enshrinee.id}/portrait`;
  return (
    <section id="portrait" aria-labelledby="portrait-heading" className="mt-8 border-t border-stone-300 pt-4">
      <h2 id="portrait-heading" className="mb-2 text-xl font-bold">
        Portrait (shown to everyone)
      </h2>
      <ConsoleNotice result={notice} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {enshrinee.portrait ? (
          <img src={imageUrl(enshrinee.portrait, THUMBNAIL_HEIGHT)} alt={enshrinee.portraitAlt ?? ""} height={THUMBNAIL_HEIGHT} width={150} className="h-[200px] w-[150px] shrink-0 rounded bg-stone-200 object-cover" data-testid="console-portrait" />
        ) : (
          <p className="text-sm text-stone-700">No portrait yet.</p>
        )}
        <div className="min-w-0 flex-1 space-y-3">
          <Form method="post" encType="multipart/form-data" action={action} className="space-y-3 rounded border border-dashed border-stone-500 p-3 text-sm">
            <div>
              <label htmlFor="portrait-file" className="block font-semibold">
                {enshrinee.portrait ? "Replace the portrait (optional)" : "Portrait photo"}
              </label>
              <input id="portrait-file" name="portrait" type="file" accept="image/jpeg,image/png,image/webp" required={!enshrinee.portrait} className="max-w-full" />
            </div>
            <div>
              <label htmlFor="portrait-alt" className="block font-semibold">
                Portrait description (for people who cannot see it)
              </label>
              <input id="portrait-alt" name="alt" required maxLength={300} defaultValue={enshrinee.portraitAlt ?? ""} className="w-full rounded border border-stone-500 bg-white px-3 py-2" />
            </div>
            <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
              Save portrait
            </button>
            <p className="text-stone-700">JPEG, PNG or WebP; 15 MB and 40 megapixels at most; location and camera data are removed.</p>
          </Form>
          {enshrinee.portrait ? (
            <Form method="post" encType="multipart/form-data" action={action}>
              <button type="submit" name="intent" value="remove" className="rounded border border-red-800 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50">
                Remove the portrait
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </section>
  );
}
