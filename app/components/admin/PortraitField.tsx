/**
 * An enshrinee's portrait on their console page (decisions 033 and 039): the current portrait,
 * a photo file and its description (the description alone when no file is chosen), "Save
 * portrait" and Remove. Part of the enshrinee form (multipart, works without JavaScript): the
 * page's action saves the portrait at once and answers the form as typed, so an upload keeps
 * what was typed in the unsaved form.
 */
import { imageUrl, THUMBNAIL_HEIGHT } from "~/shared/images";
import { ConsoleNotice } from "./ConsoleUi";
import { MAX_IMAGE_ALT } from "~/shared/images";
import { MediaPicker } from "./MediaPicker";

/** The outcome of the portrait's buttons, by code (portrait-form.server.ts): saved, or why not. */
export const PORTRAIT_NOTICES: Record<string, { ok: boolean; message: string }> = {
  done: { ok: true, message: "Portrait saved." },
  described: { ok: true, message: "Portrait description saved." },
  removed: { ok: true, message: "Portrait removed." },
  alt: { ok: false, message: "Please describe the portrait for people who cannot see it: nothing was saved." },
  empty: { ok: false, message: "Please choose a photo file for the portrait." },
  missing: { ok: false, message: "That image is not in the media library: nothing was saved." },
  "not-image": { ok: false, message: "The file is not a JPEG, PNG or WebP photo: nothing was saved." },
  damaged: { ok: false, message: "The file is damaged or incomplete: nothing was saved." },
  pixels: { ok: false, message: "The photo has more than 40 megapixels: nothing was saved." },
  "file-size": { ok: false, message: "The file is larger than 15 MB: nothing was saved." },
  broken: { ok: false, message: "The upload was cut off or could not be read: nothing was saved." },
};

export function PortraitField({
  enshrinee,
  result,
  errors = {},
  typedAlt,
  typedPick,
}: {
  enshrinee: { id: string; fullName: string; portrait: string | null; portraitAlt: string | null } | null;
  /** The answer to the portrait's own buttons (the enshrinee form's, decision 039). */
  result?: { ok: boolean; message: string } | null;
  errors?: Record<string, string>;
  typedAlt?: string;
  /** The library image chosen in the form that came back (decision 061). */
  typedPick?: string;
}) {
  const notice = result ?? null;
  if (!enshrinee) return <p className="mt-8 text-sm">Save the enshrinee first, then add a portrait.</p>;
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
          <div className="space-y-3 rounded border border-dashed border-stone-500 p-3 text-sm">
            <div>
              <label htmlFor="portrait-file" className="block font-semibold">
                {enshrinee.portrait ? "Replace the portrait (optional)" : "Portrait photo"}
              </label>
              {/* A saved portrait empties the file input (a new key), so a later save does not send it again. */}
              <input id="portrait-file" name="portrait" type="file" key={`portrait-${enshrinee.portrait ?? ""}`} accept="image/jpeg,image/png,image/webp" aria-invalid={errors.portrait ? true : undefined} aria-describedby={errors.portrait ? "portrait-file-error" : undefined} className="max-w-full" />
              {errors.portrait ? (
                <p id="portrait-file-error" className="font-semibold text-red-800">
                  {errors.portrait}
                </p>
              ) : null}
            </div>
            <MediaPicker id="portraitPick" name="portraitPick" label="Or choose the portrait from the media library" value={typedPick ?? enshrinee.portrait ?? ""} error={errors.portraitPick} altField="portrait-alt" publicOnly />
            <div>
              <label htmlFor="portrait-alt" className="block font-semibold">
                Portrait description (for people who cannot see it)
              </label>
              <input id="portrait-alt" name="alt" maxLength={MAX_IMAGE_ALT} defaultValue={typedAlt ?? enshrinee.portraitAlt ?? ""} aria-invalid={errors.alt ? true : undefined} aria-describedby={errors.alt ? "portrait-alt-error" : undefined} className="w-full rounded border border-stone-500 bg-white px-3 py-2" />
              {errors.alt ? (
                <p id="portrait-alt-error" className="font-semibold text-red-800">
                  {errors.alt}
                </p>
              ) : null}
            </div>
            <button type="submit" name="intent" value="save-portrait" formNoValidate className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
              Save portrait
            </button>
            <p className="text-stone-700">JPEG, PNG or WebP; 15 MB and 40 megapixels at most; location and camera data are removed. Saving the portrait keeps what you typed above (save the enshrinee to keep it).</p>
          </div>
          {enshrinee.portrait ? (
            <button type="submit" name="intent" value="remove-portrait" formNoValidate className="rounded border border-red-800 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50">
              Remove the portrait
            </button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
