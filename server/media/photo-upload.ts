/**
 * Photos uploaded from the console, checked by decoding them, never by name or declared type:
 * sharp reads the file (JPEG, PNG or WebP only), refuses more than MAX_UPLOAD_PIXELS, applies
 * the EXIF orientation, and writes a fresh file of the same format without any metadata (no
 * GPS position, camera or owner). A file that does not decode is refused with a clear message.
 */
import sharp from "sharp";

export const MAX_UPLOAD_FILES = 12;
export const MAX_UPLOAD_FILE_BYTES = 15 * 1024 * 1024;
/** 40 megapixels: the image routes' own input limit (decision 009). */
export const MAX_UPLOAD_PIXELS = 40_000_000;

const FORMATS = { jpeg: "jpg", png: "png", webp: "webp" } as const;

export class PhotoRejected extends Error {
  override name = "PhotoRejected";
  constructor(
    message: string,
    /** Why, for the console's fixed messages. */
    readonly reason: "not-image" | "damaged" | "pixels",
  ) {
    super(message);
  }
}

export interface CleanPhoto {
  bytes: Buffer;
  extension: string;
  width: number;
  height: number;
}

/** Decodes `input` and returns it re-encoded without metadata, or throws PhotoRejected with the reason. */
export async function cleanPhoto(input: Buffer, name: string): Promise<CleanPhoto> {
  let format: string | undefined;
  try {
    ({ format } = await sharp(input, { limitInputPixels: MAX_UPLOAD_PIXELS }).metadata());
  } catch (error) {
    if (/pixel limit/i.test(error instanceof Error ? error.message : "")) throw new PhotoRejected(`${name} is too large: at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels.`, "pixels");
    throw new PhotoRejected(`${name} is not an image we can read (JPEG, PNG or WebP).`, "not-image");
  }
  if (!format || !(format in FORMATS)) throw new PhotoRejected(`${name} is a ${format ?? "unknown"} file: please upload JPEG, PNG or WebP photos.`, "not-image");
  const kind = format as keyof typeof FORMATS;
  try {
    const image = sharp(input, { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: "error" }).rotate();
    const encoded = kind === "jpeg" ? image.jpeg({ quality: 88, mozjpeg: true }) : kind === "png" ? image.png() : image.webp({ quality: 88 });
    // sharp writes no metadata unless asked to (withMetadata / keepMetadata): EXIF, GPS, XMP, ICC names go.
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, extension: FORMATS[kind], width: info.width, height: info.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) throw new PhotoRejected(`${name} is too large: at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels.`, "pixels");
    throw new PhotoRejected(`${name} is damaged or incomplete and cannot be read.`, "damaged");
  }
}
