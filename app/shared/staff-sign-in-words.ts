/** What staff sign-in's second step and the Sign-in and security page say (decision 055). Browser-safe. */
export const SIGN_IN_MESSAGES = {
  wrongCode: "That code is not right. Check it and try again.",
  usedCode: "That code was already used. Wait for the next one in your app.",
  throttled: "Too many wrong codes. Please wait a few minutes and try again.",
  stepEnded: "This sign-in has ended. Please enter your email and password again.",
  emailSent: "We emailed a six-digit code to your address. It works once, for 10 minutes.",
  emailResendWait: "A code was sent less than a minute ago. Please check your inbox first.",
  noSecretsKey: "An authenticator app cannot be set up on this site until its operator sets SECRETS_KEY.",
  setupExpired: "This setup took too long or was changed. Please start it again.",
  /** Where a staff account's password was given somewhere other than the login page (the API, a gift's page). */
  staffOnLoginPage: "Staff accounts sign in on the login page, with a second step.",
  setUpFirst: "The museum requires an authenticator app or a passkey for staff accounts. Please set one up to continue.",
} as const;
