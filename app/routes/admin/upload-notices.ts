/** The upload's outcome as the photos page shows it after the redirect: fixed texts by code. */
export const UPLOAD_NOTICES: Record<string, { ok: boolean; message: string }> = {
  done: { ok: true, message: "Photos uploaded." },
  alt: { ok: false, message: "Please describe the photos: nothing was uploaded." },
  empty: { ok: false, message: "Please choose at least one photo file." },
  "not-image": { ok: false, message: "One of the files is not a JPEG, PNG or WebP photo: nothing was uploaded." },
  damaged: { ok: false, message: "One of the files is damaged or incomplete: nothing was uploaded." },
  pixels: { ok: false, message: "One of the photos has more than 40 megapixels: nothing was uploaded." },
  "file-size": { ok: false, message: "One of the files is larger than 15 MB: nothing was uploaded." },
  "too-many": { ok: false, message: "At most 12 files at once: nothing was uploaded." },
  "too-large": { ok: false, message: "The upload is larger than 64 MB: nothing was uploaded." },
  broken: { ok: false, message: "The upload was cut off or could not be read: nothing was uploaded." },
};
