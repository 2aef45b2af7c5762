/**
 * The museum's emails, one template per message on one layout (server/mail/templates.ts): the
 * whole text of a few messages as a person receives it, written out here, so a change to the
 * layout or to a message's words shows.
 */
import { describe, expect, it } from "vitest";
import { contactReplyEmail, passwordResetEmail, staffInvitationEmail, staffMemberInvitationEmail, ticketReminderEmail } from "../../server/mail/templates";

describe("email templates", () => {
  it("writes the password reset with greeting, quoted name, link and the museum's name", () => {
    expect(passwordResetEmail("ada@example.com", { firstName: "Ada", lastName: 'L "x"' }, "https://museum.example/password/reset?token=t")).toEqual({
      to: "ada@example.com",
      purpose: "password-reset",
      subject: "Reset your Pittsburgh Sports Museum password",
      text: [
        "Hello,",
        "",
        "Someone (we hope you) asked to reset the password of the museum account for this",
        "email address. The name given when the account was created is:",
        "",
        `    "Ada L 'x'"`,
        "",
        "Open this link within one hour to choose a new password:",
        "",
        "https://museum.example/password/reset?token=t",
        "",
        "If you did not ask for this, you can ignore this email: your password stays the same.",
        "",
        "Pittsburgh Sports Museum & Hall of Fame",
      ].join("\n"),
    });
  });

  it("signs a console reply with the museum's name and quotes the visitor's message after it", () => {
    const email = contactReplyEmail({ email: "eve@example.com", subject: "Question\r\nBcc: x", message: "Hi,\nwhen?" }, "Tuesdays.", "hello@museum.example");
    expect(email).toEqual({
      to: "eve@example.com",
      replyTo: "hello@museum.example",
      purpose: "contact-reply",
      subject: "Re: Question Bcc: x",
      text: "Tuesdays.\n\nPittsburgh Sports Museum & Hall of Fame\n\nYou wrote:\n\n> Hi,\n> when?",
    });
  });

  it("puts the reminder's unsubscribe footer after the signature", () => {
    const email = ticketReminderEmail(
      { email: "m@example.com", firstName: "Mo", lastName: "Fan" },
      { lastDay: "2026-12-03", today: "2026-11-26", ticketDays: 365, priceCents: 699, publicUrl: "https://museum.example", unsubscribeUrl: "https://museum.example/email/unsubscribe?token=u" },
    );
    expect(email.subject).toBe("Your museum ticket ends in 7 days");
    expect(email.listUnsubscribe).toBe("https://museum.example/email/unsubscribe?token=u");
    expect(email.text.startsWith("Hello,\n\nA note from the Pittsburgh Sports Museum & Hall of Fame about the ticket of the museum account in the name of:\n\n    \"Mo Fan\"\n")).toBe(true);
    expect(email.text).toContain("Renew your ticket:\nhttps://museum.example/admission/payment\n\nThank you for being a member. See you in the galleries!\n\nPittsburgh Sports Museum & Hall of Fame\n\n--\n");
    expect(email.text.endsWith("open this link:\nhttps://museum.example/email/unsubscribe?token=u\nor change it on your account page: https://museum.example/account")).toBe(true);
  });

  it("tells a new staff member who invited them, and to choose a password that opens the console", () => {
    const { subject, text } = staffInvitationEmail("c@example.com", { firstName: "Cy", lastName: "Cur" }, { role: "curator", link: "https://m.example/l", publicUrl: "https://m.example", inviter: { name: "Ada Boss", email: "ada@m.example" } });
    expect(subject).toBe("Ada Boss invited you to the staff console of the Pittsburgh Sports Museum website");
    expect(text).toBe(
      [
        "Hello,",
        "",
        "Ada Boss (ada@m.example) invited you to the museum website's staff console, with curator access, for the account in the name of:",
        "",
        '    "Cy Cur"',
        "",
        "Choose your password with this link (valid 72 hours, once); the console opens after:",
        "",
        "https://m.example/l",
        "",
        "Later, sign in at https://m.example/login and the console opens. If you did not expect this invitation, ignore this email: nothing happens without the link.",
        "",
        "Pittsburgh Sports Museum & Hall of Fame",
      ].join("\n"),
    );
    // An inviter without a name (the command line's) is named by the email alone.
    expect(staffMemberInvitationEmail("m@example.com", { firstName: "Mo", lastName: "Fan" }, { role: "admin", link: "https://m.example/i", inviter: { name: "ada@m.example", email: "ada@m.example" } }).text).toContain("ada@m.example invited you to admin access");
  });
});
