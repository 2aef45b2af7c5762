import { describe, expect, it } from "vitest";
import { cspNonce } from "../../server/security/csp-nonce";

describe("CSP nonces", () => {
  it("are 128 random bits, base64, never repeated across pool refills", () => {
    const nonces = Array.from({ length: 2000 }, () => cspNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});
