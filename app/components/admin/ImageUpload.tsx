/**
 * One image to upload for a team logo or a home banner slide: a multipart form (it works without
 * JavaScript) posted to /admin/media/upload, which answers with a redirect back here. With
 * JavaScript the page is not reloaded, so what was typed in the page's other, unsaved form stays.
 */
import { Form } from "react-router";

export function ImageUpload({ folder, back, label }: { folder: "logos" | "banners"; back: string; label: string }) {
  const action = `/admin/media/upload?${new URLSearchParams({ folder, back }).toString()}`;
  const id = `upload-${folder}`;
  return (
    <Form method="post" encType="multipart/form-data" action={action} className="mb-6 flex flex-wrap items-end gap-3 rounded border border-dashed border-stone-500 p-3 text-sm">
      <div>
        <label htmlFor={id} className="block font-semibold">
          {label}
        </label>
        <input id={id} name="image" type="file" required accept="image/jpeg,image/png,image/webp" />
      </div>
      <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold hover:bg-steel">
        Upload
      </button>
      <p className="w-full text-stone-700">JPEG, PNG or WebP; 15 MB and 40 megapixels at most; location and camera data are removed.</p>
    </Form>
  );
}
