/**
 * The enshrinee's portrait inside the enshrinee form (decision 039): the form posts multipart
 * with the portrait file and its description. "Save portrait" (`intent=save-portrait`) saves the
 * portrait at once (decision 033: cleaned, stored under
 * portraits/<id>/, the audit row), and answers the form with everything typed; "Remove the
 * portrait" likewise. A file chosen and then "Save enshrinee" is saved first, with its
 * description (a changed description alone too). A refused file or a missing description is a
 * 400 with the typing kept, and nothing is saved.
 */
import type { AppLoadContext } from "react-router";
import { singleLineText } from "~/shared/text-fields";
import { PORTRAIT_NOTICES } from "~/components/admin/PortraitField";
import { consoleAnswer, formText, typedValues } from "./guard.server";
import { readImageForm } from "./image-form.server";
import type { AttachedFile } from "./record-edit.server";
import { MAX_IMAGE_ALT } from "~/shared/images";

export const SAVE_PORTRAIT = "save-portrait";
export const REMOVE_PORTRAIT = "remove-portrait";

/** `id`: the enshrinee's (null for one not saved yet, which has no portrait fields). */
export function portraitInForm(context: AppLoadContext, request: Request, id: string | null): AttachedFile {
  const portraits = context.services.admin.portraits;
  let chosen: { bytes: Buffer; name: string } | null = null;
  let refused: string | null = null;
  return {
    async read() {
      // The bytes are kept until the intent is known (it comes after the file): nothing is stored for a delete.
      const read = await readImageForm(context, request, "portrait", async (bytes, name) => ({ bytes, name }));
      chosen = read.image;
      refused = read.refused;
      return read.form;
    },
    async answer(actor, form) {
      const intent = formText(form, "intent");
      if (!id || intent === "delete") return null;
      const answer = (code: string, errors?: Record<string, string>) => {
        const notice = PORTRAIT_NOTICES[code] ?? PORTRAIT_NOTICES.broken;
        return consoleAnswer({ ok: notice.ok, message: notice.message, errors, values: { ...typedValues(form), portraitAnswer: "yes" } });
      };
      if (intent === REMOVE_PORTRAIT) return answer((await portraits.remove(actor, id)).ok ? "removed" : "broken");
      if (refused) return answer(refused, { portrait: PORTRAIT_NOTICES[refused]?.message ?? PORTRAIT_NOTICES.broken.message });
      const current = await portraits.get(id);
      if (!current) return null;
      // An image chosen from the media library (decision 061) in place of a file; a file chosen wins.
      const pickedKey = formText(form, "portraitPick");
      const picked = !chosen && pickedKey && pickedKey !== current.portrait ? await context.services.admin.media.get(pickedKey) : null;
      if (!chosen && pickedKey && pickedKey !== current.portrait && !picked) return answer("missing", { portraitPick: PORTRAIT_NOTICES.missing.message });
      const typedAlt = singleLineText("Description", { max: MAX_IMAGE_ALT }).catch("").parse(formText(form, "alt").slice(0, MAX_IMAGE_ALT));
      // A picked image's own description stands in for an empty one.
      const alt = typedAlt || (picked?.alt ?? "").slice(0, MAX_IMAGE_ALT);
      const saving = intent === SAVE_PORTRAIT;
      // "Save enshrinee" with nothing new for the portrait: only the record is saved.
      if (!saving && !chosen && !picked && (!current.portrait || !alt || alt === current.portraitAlt)) return null;
      if (!alt) return answer("alt", { alt: PORTRAIT_NOTICES.alt.message });
      let outcome: "done" | "described" | "broken";
      if (chosen) {
        let key: string;
        try {
          key = await portraits.store(id, chosen.bytes, chosen.name);
        } catch (error) {
          const code = context.services.admin.photos.rejection(error);
          if (!code) throw error;
          return answer(code, { portrait: PORTRAIT_NOTICES[code]?.message ?? PORTRAIT_NOTICES.broken.message });
        }
        outcome = (await portraits.set(actor, id, key, alt)).ok ? "done" : "broken";
      } else if (picked) {
        outcome = (await portraits.use(actor, id, picked.key, alt)).ok ? "done" : "broken";
      } else {
        if (!current.portrait) return answer("empty", { portrait: PORTRAIT_NOTICES.empty.message });
        outcome = (await portraits.describe(actor, id, alt)).ok ? "described" : "broken";
      }
      return saving || outcome === "broken" ? answer(outcome) : null;
    },
  };
}
