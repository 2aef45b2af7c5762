/** POSTs JSON to the site's API; resolves to the parsed answer, rejects on network errors. */
export async function postJson(path: string, body: unknown): Promise<{ ok: boolean; status: number; body: { message?: string; success?: boolean } }> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const parsed = (await res.json().catch(() => ({}))) as { message?: string; success?: boolean };
  return { ok: res.ok, status: res.status, body: parsed };
}
