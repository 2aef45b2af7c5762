/**
 * Member content is cut here, before any response is built: visitors get records without the
 * member-only fields, so no page, loader payload or API answer can carry them.
 */
import type { EnshrineeView, ExhibitView } from "../../app/shared/catalog-types";
import { MEMBER_ONLY_EXHIBIT_FIELDS } from "../../app/shared/catalog-types";

export function gateExhibit(exhibit: ExhibitView, member: boolean): ExhibitView {
  if (member) return exhibit;
  const visible: ExhibitView = { ...exhibit };
  for (const field of MEMBER_ONLY_EXHIBIT_FIELDS) delete visible[field];
  return visible;
}

export function gateEnshrinee(enshrinee: EnshrineeView, member: boolean): EnshrineeView {
  const exhibits = enshrinee.exhibits.map((e) => gateExhibit(e, member));
  if (member) return { ...enshrinee, exhibits };
  const { biography: _hidden, biographyHtml: _hiddenHtml, ...visible } = enshrinee;
  return { ...visible, exhibits };
}
