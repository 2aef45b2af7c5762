/**
 * POST /admin/media/upload: one team logo (folder=logos, collection area) or home banner image
 * (folder=banners, banner area), streamed within the upload's body limit, checked by decoding,
 * stored without metadata; answers with a redirect back to the page that asked, which puts the
 * new file's name into its form (`?logo=` on a team, `?file=&width=&height=` on the banner).
 * No page posts here any more: the team and banner forms carry their own file (decision 039).
 */
import { MaxFilesExceededError, MaxFileSizeExceededError, parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { redirect } from "react-router";
import type { Route } from "./+types/media-upload";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { requireConsole } from "./guard.server";

/** Where a logo or a banner image goes back to: a team's page, or the banner page. */
function backTo(value: string | null, folder: "logos" | "banners"): string {
  if (folder === "banners") return "/admin/banner";
  return value && /^\/admin\/teams\/(?:new|[0-9a-f-]{36})$/.test(value) ? value : "/admin/teams/new";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const folder = url.searchParams.get("folder") === "banners" ? "banners" : "logos";
  requireConsole(context, request, folder === "banners" ? "banner" : "collection");
  const back = backTo(url.searchParams.get("back"), folder);
  const answer = (params: Record<string, string>) => redirect(`${back}?${new URLSearchParams(params).toString()}`, 303);
  if (rateLimitedAnswer(context, (message) => message)) return answer({ upload: "broken" });
  const photos = context.services.admin.photos;
  let stored: { key: string; width: number; height: number } | null = null;
  try {
    await parseFormData(request, { maxFiles: 1, maxFileSize: photos.limits.maxFileBytes }, async (file: FileUpload) => {
      if (file.fieldName !== "image" || (file.name === "" && file.size === 0)) return null;
      stored = await photos.storePublic(folder, Buffer.from(await file.arrayBuffer()), file.name || "The file");
      return null;
    });
  } catch (error) {
    const kept = stored as { key: string } | null;
    if (kept) await photos.discard([kept.key]);
    for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
      if (e instanceof Error && e.name === "BodyTooLargeError") return answer({ upload: "too-large" });
      if (e instanceof MaxFilesExceededError) return answer({ upload: "too-many" });
      if (e instanceof MaxFileSizeExceededError) return answer({ upload: "file-size" });
      const reason = photos.rejection(e);
      if (reason) return answer({ upload: reason });
    }
    context.logger.warn({ err: error }, "image upload could not be read");
    return answer({ upload: "broken" });
  }
  const done = stored as { key: string; width: number; height: number } | null;
  if (!done) return answer({ upload: "empty" });
  if (folder === "logos") return answer({ logo: done.key });
  return answer({ file: done.key, width: String(done.width), height: String(done.height) });
}
