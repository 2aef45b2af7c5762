/** Every user-facing text the spec fixes, written once; tests import these. */
export const MESSAGES = {
  notFoundHeadline: "Flag on the play! The refs stole this page.",
  notFoundCode: "404 PAGE NOT FOUND",
  errorHeadline: "UNKNOWN ERROR ON THE DEVELOPER",
  errorApology:
    "We're sorry: something went wrong on our side while loading this page. Our team has been told. You'll be taken back to the home page in a few seconds.",
} as const;

export const COPYRIGHT_YEARS = "2021-2024";

/** Spec section 5: validation messages, word for word. */
export const VALIDATION = {
  firstNameRequired: "Please enter your first name",
  lastNameRequired: "Please enter your last name",
  emailRequired: "Please enter your email address",
  emailConfirmRequired: "Please confirm your email address",
  emailFormat: "Please check your email address format.",
  emailsMismatch: "Email addresses do not match, please re-enter.",
  passwordRequired: "Please choose a password",
  passwordConfirmRequired: "Please confirm your chosen password",
  passwordLength: "Password must include minimum 8 characters, maximum 16 characters.",
  passwordsMismatch: "Passwords do not match, please re-enter.",
  termsRequired: "Please review and agree to the Terms and Conditions to proceed",
  loginEmailInvalid: "Please enter a valid email address",
  forgotEmailRequired: "Please provide a valid email address.",
  resetPasswordsMismatch: "Passwords do not match, please re-enter",
  resetPasswordLength: "Password must be between 8 and 16 characters",
  subjectRequired: "Please choose a subject",
  messageRequired: "Please include your message",
  subscribeConsentRequired: "This box must be checked in order to subscribe",
} as const;

/** Texts the server answers with (the spec leaves their wording to us). */
export const SERVER_MESSAGES = {
  signUpSuccess: "Your account has been created. Please proceed to payment to complete your admission.",
  emailTaken: "An account with this email address already exists. Please log in instead.",
  /** A sign-up sent again (same Idempotency-Key) after the account it made was deleted (decision 047). */
  signUpAccountGone: "The account this sign-up created has since been deleted. Please sign up again.",
  loginSuccess: (firstName: string) => `Welcome back, ${firstName}! You are now logged in.`,
  loginExpired: "Your museum ticket has expired. Please renew your admission to keep exploring the museum.",
  loginUnpaid: "Your account is not paid yet. Please complete your payment to enter the museum.",
  loginFailed: "The email address or password you entered is incorrect.",
  loginRateLimited: "Too many login attempts. Please wait 15 minutes and try again.",
  logout: "You have been logged out. Thank you for visiting the museum!",
  notLoggedInForPayment: "You must Login before making payment.  Please proceed to the Login page",
  paymentSuccess: "Thank you! Your payment was successful and your museum ticket is active. Enjoy the museum!",
  paymentServerError: "We could not process your payment right now. You have not been charged. Please try again in a few minutes.",
  resetRequested:
    "If an account exists for that email address, we have sent it a link to reset the password. Please check your inbox.",
  resetDone: "Your password has been reset. Please log in with your new password.",
  resetInvalidToken: "This password reset link is invalid or has expired. Please request a new one.",
  // Said when a reset link is opened (the page then has no form to fill in vain).
  resetLinkUnknown: "This password reset link is not complete or not valid. Open the whole link from the email, or ask for a new one.",
  resetLinkUsed: "This password reset link has already been used. If you still need to reset your password, ask for a new link.",
  resetLinkExpired: "This password reset link has expired. Ask for a new one.",
  forgotFallback: "An error occurred resetting your password.",
  resetFallback: "An error occurred resetting your password. Please try again.",
  crossOrigin: "This request came from another site and was refused.",
  tooManyRequests: "Too many requests. Please wait a moment and try again.",
  paymentNeedsReview:
    "We received a payment that does not match the ticket price, so no ticket was added. Our staff have been told and will put it right; please contact us if you have questions.",
} as const;

/**
 * Messages of the text rules every form field follows (no control characters, no broken
 * characters, a length limit), each naming its field, since an API answer carries only the
 * message.
 */
export const TEXT_RULE_MESSAGES = {
  controlCharacters: (field: string) => `${field} cannot contain line breaks, tabs or other control characters.`,
  messageControlCharacters: (field: string) => `${field} cannot contain control characters other than line breaks and tabs.`,
  brokenCharacters: (field: string) => `${field} contains a broken character (half of an emoji or symbol). Please retype it.`,
  tooLong: (field: string, max: number) => `${field} can be at most ${max} characters long.`,
  /** A field the form always sends was left out (a hand-made post). */
  missing: (field: string) => `${field} was not sent. Please reload the form and try again.`,
} as const;

/** Spec section 8: contact and subscribe outcomes, word for word. */
export const CONTACT_MESSAGES = {
  success:
    "Your message was sent successfully. Due to the volume, we are not able to respond to every message, but we very much appreciate your consideration! Thank you for submitting!",
  failure: "There was an issue submitting your message, please try again later",
} as const;

export const SUBSCRIBE_MESSAGES = {
  headline: "Subscribe to our Newsletter!",
  success: "You have been successfully subscribed!  Thank you!",
  failure: (email: string) => `There was an issue subscribing, please send an email to ${email} and we will subscribe you`,
} as const;

export const BOTCHECK_MESSAGES = {
  failed: "We could not confirm that you are not a robot. Please reload the page and try again.",
  honeypot: "Your submission looked automated and was not accepted. Please try again.",
} as const;

/** Spec section 5: the contact form's subject options, in order. */
export const CONTACT_SUBJECTS = [
  "Question",
  "Comment",
  "I have an item for your museum",
  "Mistakes, Errors, Typos or Grammar",
  "Media enquiry",
  "Enshrinee Nominations",
  "I'm a troll",
] as const;

/** What the host answers before a request reaches a page or an API handler. */
export const HOST_MESSAGES = {
  bodyTooLarge: (limit: string) => `The request is too large: this address accepts at most ${limit}.`,
  unsupportedType: (accepted: string) => `This address accepts only ${accepted}.`,
  methodNotAllowed: (allowed: string) => `This method is not allowed here. Allowed: ${allowed}.`,
  badRequest: "The request could not be understood.",
  unavailable: "The museum's website is briefly unavailable. Please try again in a minute.",
} as const;

/** Texts of the pages themselves for situations the spec does not cover. */
export const PAGE_MESSAGES = {
  /** A form was sent but no answer came back: the form stays as it was. */
  noAnswer:
    "No answer came back from the museum's website (the connection may have dropped). Everything you typed is still here: please try again.",
  /** The test-mode card form's empty fields. */
  cardNumberRequired: "Please enter your card number.",
  cardExpiryRequired: "Please enter your card's expiration date (MM/YY).",
  cardCvcRequired: "Please enter your card's security code (CVC).",
  cardZipRequired: "Please enter your ZIP code.",
  /** The payment page asked, but no answer came back (a dropped connection, for example). */
  paymentNoAnswer:
    "We did not get an answer about your payment (the connection may have dropped), so we cannot tell yet whether your card was charged. Your details are still here: press Authorize Payment to try again. Trying again is safe: this payment can never be charged twice.",
} as const;

/** The account's own pages (decision 017). */
function listWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function reminderDaysWords(days: readonly number[]): string {
  const before = days.filter((d) => d > 0);
  const after = days.filter((d) => d < 0).map((d) => -d);
  const parts: string[] = [];
  if (before.length) parts.push(`${listWords(before.map(String))} ${before.length === 1 && before[0] === 1 ? "day" : "days"} before your ticket ends`);
  if (days.includes(0)) parts.push("on its last day");
  if (after.length) parts.push(after.length === 1 && after[0] === 1 ? "the day after it ended" : `${listWords(after.map(String))} ${after.length === 1 && after[0] === 1 ? "day" : "days"} after it ended`);
  return listWords(parts);
}

export const ACCOUNT_MESSAGES = {
  nameChanged: "Your name has been changed.",
  passwordChanged: "Your password has been changed. You have been signed out everywhere else.",
  wrongPassword: "That is not your current password.",
  currentPasswordRequired: "Please enter your current password",
  newPasswordsMismatch: "The new passwords do not match, please re-enter.",
  emailChangeSent: (to: string) =>
    `We have sent a link to ${to}. Your email address changes once you open it (within 24 hours), signed in to this account.`,
  sameEmail: "That is already your email address.",
  emailTaken: "Another account uses that email address.",
  emailChanged: (to: string) => `Your email address is now ${to}.`,
  emailLinkInvalid: "This link is invalid, was already used or has expired. Please ask for a new one from your account page.",
  emailLinkOtherAccount: "This link belongs to another account. Please sign in to the account that asked for the change.",
  staffCannotDelete: "Staff accounts are removed by an admin from the staff console.",
  accountDeleted: "Your account has been deleted and you are signed out. Thank you for visiting the museum.",
  /** The reminders REMINDER_DAYS sets, in words ("14, 7 and 1 days before your ticket ends, and the day after it ended"). */
  remindersOn: (days: readonly number[]) => (days.length ? `We remind you by email ${reminderDaysWords(days)}.` : "The museum sends no ticket reminders at the moment."),
  remindersOff: "You will not receive ticket reminders. You can turn them back on here at any time.",
  remindersTurnedOn: "Ticket reminders are on.",
  remindersTurnedOff: "Ticket reminders are off.",
  remindersChoice: "Please choose whether to receive ticket reminders.",
  unsubscribeConfirm: "Stop the emails that remind you when your museum ticket is about to end?",
  unsubscribed: "You will no longer receive ticket reminders. You can turn them back on from your account page.",
  unsubscribeLinkInvalid: "This unsubscribe link is not valid. You can turn ticket reminders off from your account page.",
} as const;
