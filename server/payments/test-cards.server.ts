/**
 * The built-in test mode's cards, behaving like Stripe's test cards: the numbers and outcomes
 * below are those of Stripe's list of test cards ("Testing" in Stripe's documentation,
 * https://docs.stripe.com/testing, sections "Cards by brand", "Declined payments" and "Test 3D
 * Secure authentication"), with the message Stripe gives the person for each. A number failing
 * the Luhn check (4242 4242 4242 4241) or a past expiry date is refused before any charge, as
 * Stripe's card field does. Any other valid number succeeds, as an unlisted test number does in
 * Stripe's test mode. Card numbers are never stored or logged: only the brand and the last four
 * digits leave here. A card with `authenticate` asks for 3-D Secure first: the person completes
 * or fails a test challenge (decision 059), and a completed one ends as `authenticate` says.
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
  /** The 3-D Secure challenge was failed (Stripe's payment_intent_authentication_failure). */
  authenticationFailed: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
} as const;

export type Outcome = "succeed" | keyof typeof CARD_MESSAGES;

/** One of Stripe's test cards. `authenticate`: 3-D Secure is asked first, and this is the outcome once it is completed. */
interface TestCard {
  digits: string;
  id: string;
  brand: string;
  outcome: Outcome;
  authenticate?: Outcome;
}

/** Stripe's test cards: number, Stripe's test payment method id, brand and outcome (with Stripe's decline code in the comment). */
const STRIPE_TEST_CARDS: readonly TestCard[] = [
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
  // 3-D Secure, "Authentication and setup": a one-time payment made by the person always asks for it.
  // Authenticate unless set up (set-up cards are for later payments without the person; this site makes none)
  { digits: "4000002500003155", id: "pm_card_authenticationRequiredOnSetup", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // Always authenticate
  { digits: "4000002760003184", id: "pm_card_authenticationRequired", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // Already set up: one-time payments still ask
  { digits: "4000003800000446", id: "pm_card_authenticationRequiredSetupForOffSession", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // Insufficient funds: declined with insufficient_funds even after a completed authentication
  { digits: "4000008260003178", id: "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds", brand: "visa", outcome: "insufficientFunds", authenticate: "insufficientFunds" },
  // 3-D Secure, "Support and availability"
  // 3DS Required, OK (Ireland-issued)
  { digits: "4000000000003220", id: "pm_card_threeDSecure2Required", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // 3DS Required, OK (US-issued; Stripe lists no PaymentMethod id for it, this one is the site's own)
  { digits: "4000008400000027", id: "pm_test_threeDSecure2RequiredUs", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // 3DS Required (3D Secure 1 in earlier versions of Stripe's list, pm_card_threeDSecureRequired; run as 3D Secure 2 now)
  { digits: "4000000000003063", id: "pm_card_threeDSecureRequired", brand: "visa", outcome: "succeed", authenticate: "succeed" },
  // 3DS Required, Declined: card_declined after authentication
  { digits: "4000008400001629", id: "pm_card_threeDSecureRequiredChargeDeclined", brand: "visa", outcome: "declined", authenticate: "declined" },
  // 3DS Required, Error: the 3-D Secure lookup fails, no challenge, declined with card_declined
  { digits: "4000008400001280", id: "pm_card_threeDSecureRequiredProcessingError", brand: "visa", outcome: "declined" },
  // 3DS Supported, OK: not asked by default
  { digits: "4000000000003055", id: "pm_card_threeDSecureOptional", brand: "visa", outcome: "succeed" },
  // 3DS Supported, Error: an attempt would fail, but none is made by default
  { digits: "4000000000003097", id: "pm_card_threeDSecureOptionalProcessingError", brand: "visa", outcome: "succeed" },
  // 3DS Not supported: proceeds without authentication
  { digits: "378282246310005", id: "pm_card_amex_threeDSecureNotSupported", brand: "amex", outcome: "succeed" },
  // 3DS Frictionless flow, OK: authenticated without a challenge (no PaymentMethod id listed; the site's own)
  { digits: "4000000032200000", id: "pm_test_threeDSecureFrictionless", brand: "visa", outcome: "succeed" },
];

/** Stripe's own test payment method ids, usable through the JSON API too. */
export const TEST_PAYMENT_METHODS: Record<string, TestMethod> = Object.fromEntries(
  STRIPE_TEST_CARDS.map((c) => [c.id, { outcome: c.outcome, authenticate: c.authenticate, brand: c.brand, last4: c.digits.slice(-4) }]),
);

export interface TestMethod {
  outcome: Outcome;
  /** Set when the card asks for 3-D Secure: the outcome once it is completed. */
  authenticate?: Outcome;
  brand: string;
  last4: string;
}

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

export function describeTestPaymentMethod(id: string): TestMethod | null {
  const known = TEST_PAYMENT_METHODS[id];
  if (known) return known;
  const m = /^pm_test_([a-z]+)_(\d{4})$/.exec(id);
  return m ? { outcome: "succeed", brand: m[1], last4: m[2] } : null;
}
