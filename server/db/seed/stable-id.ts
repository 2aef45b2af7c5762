/** Deterministic UUIDs (version 5 layout) from a slug, so seeding twice gives the same ids. */
import { createHash } from "node:crypto";

export function stableId(kind: string, slug: string): string {
  const h = createHash("sha1").update(`pittsburgh-sports-museum:${kind}:${slug}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
