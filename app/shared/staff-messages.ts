/**
 * The staff console's invitations and deactivation, and the page a member accepts an invitation
 * on (decision 049). Apart from app/shared/messages.ts, which every public page loads:
 * only the console and the invitation page need these.
 */
export const STAFF_MESSAGES = {
  memberInvited: (email: string) => `${email} has a member account: they get an invitation to accept; their ticket and payments stay theirs.`,
  invitationSent: (email: string) => `Invitation sent to ${email}.`,
  invitationWithdrawn: (email: string) => `The invitation to ${email} is withdrawn: the link no longer works.`,
  deactivateQuestion: (email: string) => `Deactivate the staff access of ${email}?`,
  deactivateExplained: "The console closes to them at once and their staff sessions end. A member account stays as it is: they can still sign in, with their ticket and payments.",
  deactivatedMember: (email: string) => `${email} deactivated: the console is closed to them; their member account, ticket and payments stay as they were.`,
  deactivated: (email: string) => `${email} deactivated.`,
  acceptQuestion: (role: string) => `Accept ${role} access to the staff console?`,
  acceptExplained: "Your ticket, payments and member account stay yours. The console opens to you once you accept.",
  acceptSignIn: (email: string) => `Sign in as ${email} to accept.`,
  accepted: (role: string) => `You are now on the staff as ${role}. Your ticket and payments stay yours.`,
  chooseTitle: "Choose your password for the staff console",
  chooseIntro: (email: string, role: string) => `You are invited as ${role}, for ${email}. Choose a password of 8 to 16 characters: the staff console opens as soon as it is saved.`,
  chooseSubmit: "Save the password and open the console",
  newLinkUsed: "This invitation link was already used: the password is chosen. Sign in with it to open the staff console.",
  newLinkReplaced: "This invitation link was replaced by a newer one: please use the link in the latest invitation email.",
  newLinkExpired: "This invitation link has expired (links last 72 hours). Please ask the admin who invited you to send it again.",
  linkInvalid: "This invitation link is invalid, was already used, withdrawn or has expired. Please ask the admin who invited you for a new one.",
  linkOtherAccount: "This invitation is for another account. Please sign out, then follow the link again and sign in as the person invited.",
  wrongPassword: "That password does not open the invited account.",
  factorsRequired: "Every staff account now needs an authenticator app or a passkey; staff without one set it up at their next sign-in.",
  factorsOwnFirst: "Set up your own authenticator app or passkey on Sign-in and security first, then require one of every staff account.",
  factorsOptional: "Staff no longer need an authenticator app or a passkey; those without one get an emailed code on new browsers.",
} as const;
