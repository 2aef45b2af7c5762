import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../server/accounts/secret-box";

describe("the secret box (SECRETS_KEY, decision 055)", () => {
  const box = createSecretBox("a-secrets-key-of-at-least-thirty-two-characters");

  it("opens what it sealed for the same account, and never shows the secret in the sealed text", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXP", "account-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(box.open(sealed, "account-1")).toBe("JBSWY3DPEHPK3PXP");
    // A fresh nonce each time: the same secret sealed twice reads differently.
    expect(box.seal("JBSWY3DPEHPK3PXP", "account-1")).not.toBe(sealed);
  });

  it("refuses a value moved to another account, sealed under another key, or changed by one character", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXP", "account-1");
    expect(box.open(sealed, "account-2")).toBeNull();
    expect(createSecretBox("another-secrets-key-of-thirty-two-characters").open(sealed, "account-1")).toBeNull();
    // One bit of the ciphertext flipped (decoded and encoded again, so no base64 padding bit is the one changed).
    const [version, nonce, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] ^= 1;
    expect(box.open([version, nonce, tag, flipped.toString("base64url")].join("."), "account-1")).toBeNull();
    expect(box.open("not sealed at all", "account-1")).toBeNull();
  });

  it("hashes recovery codes under its key: the same code the same way, another key another way", () => {
    expect(box.keyedHash("recovery:abcde12345")).toBe(box.keyedHash("recovery:abcde12345"));
    expect(createSecretBox("another-secrets-key-of-thirty-two-characters").keyedHash("recovery:abcde12345")).not.toBe(box.keyedHash("recovery:abcde12345"));
  });
});
