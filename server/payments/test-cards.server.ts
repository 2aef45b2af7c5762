/**
 * The built-in test mode's cards, behaving like Stripe's test cards: the numbers and outcomes
 * below are those of Stripe's list of test cards ("Testing" in Stripe's documentation,
 * https://docs.stripe.com/testing, sections "Cards by brand" and "Declined payments"), with the
 * message Stripe gives the person for each. A number failing the Luhn check (4242 4242 4242 4241)
 * or a past expiry date is refused before any charge, as Stripe's card field does. Any other
 * valid number succeeds, as an unlisted test number does in Stripe's test mode. Card numbers are
 * never stored or logged: only the brand and the last four digits leave here. Cards that ask
 * for 3-D Secure are not simulated (they succeed like any other number).
 */

export const CARD_MESSAGES = {
  declined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  expiredCard: "Your card has expired.",
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: "An error occurred while processing your card. Try again in a little bit.",
  invalidNumber: "Your card number is invalid.",
  expiryInPast: "Your card's expiration year is in the past.",
  invalidExpiry: "Your card's expiration date is incomplete.",
  invalidCvc: "Your card's security code is incomplete.",
  invalidZip: "Your postal code is incomplete.",
} as const;

type Outcome = "succeed" | keyof typeof CARD_MESSAGES;

/** Stripe's test cards: number, Stripe's test payment method id, brand and outcome (with Stripe's decline code in the comment). */
const STRIPE_TEST_CARDS: readonly { digits: string; id: string; brand: string; outcome: Outcome }[] = [
  { digits: "4242424242424242", id: "pm_card_visa", brand: "visa", outcome: "succeed" },
  { digits: "5555555555554444", id: "pm_card_mastercard", brand: "mastercard", outcome: "succeed" },
  // card_declined, generic_decline
  { digits: "4000000000000002", id: "pm_card_chargeDeclined", brand: "visa", outcome: "declined" },
  // card_declined, insufficient_funds
  { digits: "4000000000009995", id: "pm_card_chargeDeclinedInsufficientFunds", brand: "visa", outcome: "insufficientFunds" },
  // card_declined, lost_card (the person is told only that it was declined)
  { digits: "4000000000009987", id: "pm_card_chargeDeclinedLostCard", brand: "visa", outcome: "declined" },
  // card_declined, stolen_card (the same)
  { digits: "4000000000009979", id: "pm_card_chargeDeclinedStolenCard", brand: "visa", outcome: "declined" },
  // expired_card
  { digits: "4000000000000069", id: "pm_card_chargeDeclinedExpiredCard", brand: "visa", outcome: "expiredCard" },
  // incorrect_cvc
  { digits: "4000000000000127", id: "pm_card_chargeDeclinedIncorrectCvc", brand: "visa", outcome: "incorrectCvc" },
  // processing_error
  { digits: "4000000000000119", id: "pm_card_chargeDeclinedProcessingError", brand: "visa", outcome: "processingError" },
  // The CVC check fails when a CVC is given (the form always asks for one): incorrect_cvc
  { digits: "4000000000000101", id: "pm_card_cvcCheckFail", brand: "visa", outcome: "incorrectCvc" },
  // Attaching to a customer succeeds, charging it fails: card_declined
  { digits: "4000000000000341", id: "pm_card_chargeCustomerFail", brand: "visa", outcome: "declined" },
];

/** Stripe's own test payment method ids, usable through the JSON API too. */
export const TEST_PAYMENT_METHODS: Record<string, { outcome: Outcome; brand: string; last4: string }> = Object.fromEntries(
  STRIPE_TEST_CARDS.map((c) => [c.id, { outcome: c.outcome, brand: c.brand, last4: c.digits.slice(-4) }]),
);

const DIGITS_TO_METHOD: Record<string, string> = Object.fromEntries(STRIPE_TEST_CARDS.map((c) => [c.digits, c.id]));

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

export function describeTestPaymentMethod(id: string): { outcome: Outcome; brand: string; last4: string } | null {
  const known = TEST_PAYMENT_METHODS[id];
  if (known) return known;
  const m = /^pm_test_([a-z]+)_(\d{4})$/.exec(id);
  return m ? { outcome: "succeed", brand: m[1], last4: m[2] } : null;
}
