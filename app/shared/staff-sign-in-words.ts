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
  /** Passkeys (decision 056), for staff and members. */
  passkeyFailed: "That passkey did not sign you in. Try again, or sign in with your email and password.",
  passkeyCancelled: "The passkey was not used: the request was cancelled or timed out.",
  passkeyUnsupported: "This browser cannot use passkeys here.",
  passkeyNoAnswer: "We did not get an answer. Please check your connection and try again.",
  passkeySignedOut: "Your session has ended. Please sign in again.",
  passkeyPassword: "That password is not right.",
  passkeyPasswordMissing: "Please type your password to add a passkey.",
  passkeyNotAdded: "The passkey could not be added. Please try again.",
  passkeyAdded: "Your passkey is added. You can now sign in with it.",
  passkeyRemoved: "The passkey is removed.",
} as const;
