import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_MESSAGES, newIdempotencyKey } from "~/shared/idempotency";
import { parseIdempotencyKey, requestFingerprint } from "../../server/idempotency/idempotency";

describe("Idempotency-Key rules (decision 025)", () => {
  it("takes 8 to 200 visible ASCII characters; no key means none; anything else is refused with the rule", () => {
    for (const key of ["abcdefgh", "k".repeat(200), "a1!~{}[]:;/?", newIdempotencyKey()]) expect(parseIdempotencyKey(key)).toEqual({ ok: true, key });
    for (const none of [undefined, null, ""]) expect(parseIdempotencyKey(none)).toEqual({ ok: true, key: null });
    for (const bad of ["short12", "k".repeat(201), "with space", "tab\there12", "clé-de-requête", "line\nbreak1", ["abcdefgh"], 12345678]) {
      expect(parseIdempotencyKey(bad)).toEqual({ ok: false, message: IDEMPOTENCY_MESSAGES.malformed });
    }
  });

  it("fingerprints the body whatever the order of its fields, leaving out the key and the bot-check token", () => {
    const fp = (body: unknown) => requestFingerprint("secret", body);
    const body = { email: "ada@example.com", message: "Hello", nested: { b: 1, a: [1, 2] } };
    expect(fp({ nested: { a: [1, 2], b: 1 }, message: "Hello", email: "ada@example.com" })).toBe(fp(body));
    expect(fp({ ...body, recaptchaToken: "one", idempotencyKey: "k1" })).toBe(fp({ ...body, recaptchaToken: "two", "g-recaptcha-response": "x" }));
    expect(fp({ ...body, message: "Hello!" })).not.toBe(fp(body));
    expect(fp({ ...body, nested: { a: [2, 1], b: 1 } })).not.toBe(fp(body));
    // Keyed with the site's secret: a stored fingerprint says nothing of a password in the body.
    expect(requestFingerprint("other secret", body)).not.toBe(fp(body));
  });
});
