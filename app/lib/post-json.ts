/**
 * POSTs JSON to the site's API; resolves to the parsed answer, rejects on network errors. An
 * empty header value is left out (a page rendered without an Idempotency-Key, decision 025).
 */
export async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ ok: boolean; status: number; body: { message?: string; success?: boolean; field?: string } }> {
  const extra = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ""));
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...extra },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const parsed = (await res.json().catch(() => ({}))) as { message?: string; success?: boolean; field?: string };
  return { ok: res.ok, status: res.status, body: parsed };
}
