/** The built-in test mode's card form reads the expiry as Stripe's field does. */
import { describe, expect, it } from "vitest";
import { CARD_MESSAGES, testPaymentMethodFor } from "../../server/payments/test-cards.server";

const now = new Date("2026-11-26T12:00:00Z");
const card = (expiry: string) => ({ cardNumber: "4242 4242 4242 4242", expiry, cvc: "123", zip: "15212" });

describe("test-mode expiry", () => {
  it.each(["12/34", "12 / 34", "1234", "0128", "134", " 1234 "])("accepts %j", (expiry) => {
    expect(testPaymentMethodFor(card(expiry), now)).toEqual({ ok: true, paymentMethodId: "pm_card_visa" });
  });

  it.each(["", "12", "123456", "13/34", "1334", "0034", "12-34", "ab/cd"])("refuses %j as incomplete", (expiry) => {
    expect(testPaymentMethodFor(card(expiry), now)).toEqual({ ok: false, message: CARD_MESSAGES.invalidExpiry });
  });

  it("refuses a past month typed without the slash", () => {
    expect(testPaymentMethodFor(card("1025"), now)).toEqual({ ok: false, message: CARD_MESSAGES.expiryInPast });
  });
});
