/**
 * The built-in test mode's cards, behaving like Stripe's test cards: 4242 4242 4242 4242
 * succeeds, 4000 0000 0000 0002 is declined, ...9995 has insufficient funds, ...0069 is expired;
 * a number failing the Luhn check or a past expiry date is refused before any charge. Card
 * numbers are never stored or logged: only the brand and the last four digits leave here.
 */

export const CARD_MESSAGES = {
  declined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  expiredCard: "Your card has expired.",
  invalidNumber: "Your card number is invalid.",
  expiryInPast: "Your card's expiration year is in the past.",
  invalidExpiry: "Your card's expiration date is incomplete.",
  invalidCvc: "Your card's security code is incomplete.",
  invalidZip: "Your postal code is incomplete.",
} as const;

/** Stripe's own test payment method ids, usable through the JSON API too. */
export const TEST_PAYMENT_METHODS: Record<string, { outcome: "succeed" | keyof typeof CARD_MESSAGES; brand: string; last4: string }> = {
  pm_card_visa: { outcome: "succeed", brand: "visa", last4: "4242" },
  pm_card_mastercard: { outcome: "succeed", brand: "mastercard", last4: "4444" },
  pm_card_chargeDeclined: { outcome: "declined", brand: "visa", last4: "0002" },
  pm_card_chargeDeclinedInsufficientFunds: { outcome: "insufficientFunds", brand: "visa", last4: "9995" },
  pm_card_chargeDeclinedExpiredCard: { outcome: "expiredCard", brand: "visa", last4: "0069" },
};

const DIGITS_TO_METHOD: Record<string, string> = {
  "4242424242424242": "pm_card_visa",
  "5555555555554444": "pm_card_mastercard",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000000000000069": "pm_card_chargeDeclinedExpiredCard",
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface TestCardInput {
  cardNumber: string;
  /** MM/YY */
  expiry: string;
  cvc: string;
  zip: string;
}

/**
 * Turns the test-mode form into a payment method id, or the card error the person must fix
 * (checked in the form, as Stripe Elements does, before any charge is attempted).
 */
export function testPaymentMethodFor(card: TestCardInput, now: Date): { ok: true; paymentMethodId: string } | { ok: false; message: string } {
  const digits = card.cardNumber.replace(/[\s-]/g, "");
  if (!luhnValid(digits)) return { ok: false, message: CARD_MESSAGES.invalidNumber };
  // MM/YY, or the digits alone as Stripe's field takes them ("1234" is 12/34, "134" is 1/34).
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(card.expiry) ?? /^\s*(\d{1,2})(\d{2})\s*$/.exec(card.expiry);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) return { ok: false, message: CARD_MESSAGES.invalidExpiry };
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  const nowYear = now.getUTCFullYear();
  if (year < nowYear || (year === nowYear && month < now.getUTCMonth() + 1)) return { ok: false, message: CARD_MESSAGES.expiryInPast };
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return { ok: false, message: CARD_MESSAGES.invalidCvc };
  if (!/^\d{5}(-\d{4})?$/.test(card.zip.trim())) return { ok: false, message: CARD_MESSAGES.invalidZip };
  const known = DIGITS_TO_METHOD[digits];
  if (known) return { ok: true, paymentMethodId: known };
  // Any other valid number behaves like a successful card of its brand.
  const brand = digits.startsWith("4") ? "visa" : /^5[1-5]/.test(digits) ? "mastercard" : /^3[47]/.test(digits) ? "amex" : "card";
  return { ok: true, paymentMethodId: `pm_test_${brand}_${digits.slice(-4)}` };
}

export function describeTestPaymentMethod(id: string): { outcome: "succeed" | keyof typeof CARD_MESSAGES; brand: string; last4: string } | null {
  const known = TEST_PAYMENT_METHODS[id];
  if (known) return known;
  const m = /^pm_test_([a-z]+)_(\d{4})$/.exec(id);
  return m ? { outcome: "succeed", brand: m[1], last4: m[2] } : null;
}
