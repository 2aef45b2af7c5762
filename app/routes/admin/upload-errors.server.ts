/** Why a streamed console upload failed, as the code of an upload notice (exhibit photos, an edit form with an image). */
import { MaxFilesExceededError, MaxFileSizeExceededError } from "@remix-run/form-data-parser";

/** The upload notice for a failure: the host's body limit, the parser's limits, or a refused file. */
export function uploadErrorCode(error: unknown, rejection: (e: unknown) => string | null): string | null {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error && e.name === "BodyTooLargeError") return "too-large";
    if (e instanceof MaxFilesExceededError) return "too-many";
    if (e instanceof MaxFileSizeExceededError) return "file-size";
    const reason = rejection(e);
    if (reason) return reason;
  }
  return null;
}
