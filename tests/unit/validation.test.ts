import { describe, expect, it } from "vitest";
import type { z } from "zod/mini";
import {
  loginSchema,
  multiLineText,
  passwordResetRequestSchema,
  passwordResetSchema,
  signUpSchema,
  singleLineText,
} from "~/shared/account-schemas";
import { contactSchema, mailchimpSubscribeSchema, subscribeSchema } from "~/shared/contact-schemas";
import { TEXT_RULE_MESSAGES as T, VALIDATION as V } from "~/shared/messages";
import { accessStatus, paymentBuysTicket, ticketValidThrough } from "../../server/membership/ticket";
import { addDays } from "~/shared/calendar";
import { fieldErrors, typedValues } from "~/shared/form-errors";

const person = {
  firstName: "Ada",
  lastName: "Fan",
  emailAddress: "ada@example.com",
  emailAddressConfirm: "ADA@example.com",
  password: "Steel3rs!",
  passwordConfirm: "Steel3rs!",
  termsAndConditions: "on",
};

describe("sign-up messages (spec section 5)", () => {
  it("accepts a complete form and reads checkboxes", () => {
    const r = signUpSchema.parse({ ...person, emailOptIn: "on" });
    expect(r.emailOptIn).toBe(true);
    expect(r.termsAndConditions).toBe(true);
  });

  it("gives each missing field its own message", () => {
    const r = signUpSchema.safeParse({});
    expect(r.success).toBe(false);
    const e = fieldErrors(r.error!);
    expect(e).toMatchObject({
      firstName: V.firstNameRequired,
      lastName: V.lastNameRequired,
      emailAddress: V.emailRequired,
      emailAddressConfirm: V.emailConfirmRequired,
      password: V.passwordRequired,
      passwordConfirm: V.passwordConfirmRequired,
    });
  });

  it.each([
    [{ emailAddress: "ada@", emailAddressConfirm: "ada@" }, "emailAddress", V.emailFormat],
    [{ emailAddressConfirm: "bob@example.com" }, "emailAddressConfirm", V.emailsMismatch],
    [{ password: "1234567", passwordConfirm: "1234567" }, "password", V.passwordLength],
    [{ password: "12345678901234567", passwordConfirm: "12345678901234567" }, "password", V.passwordLength],
    [{ passwordConfirm: "Steel3rs?" }, "passwordConfirm", V.passwordsMismatch],
    [{ termsAndConditions: undefined }, "termsAndConditions", V.termsRequired],
  ])("%j → %s: %s", (overrides, field, message) => {
    const r = signUpSchema.safeParse({ ...person, ...overrides });
    expect(fieldErrors(r.error!)[field]).toBe(message);
  });

  it("accepts passwords of exactly 8 and 16 characters", () => {
    for (const p of ["12345678", "1234567890123456"]) expect(signUpSchema.safeParse({ ...person, password: p, passwordConfirm: p }).success).toBe(true);
  });
});

describe("login, forgot and reset messages", () => {
  it("refuses a malformed login email with 'Please enter a valid email address'", () => {
    expect(loginSchema.safeParse({ emailAddress: "nope", password: "x" }).error?.issues[0].message).toBe(V.loginEmailInvalid);
  });
  it("asks for an email on the forgot-password form", () => {
    expect(passwordResetRequestSchema.safeParse({ emailAddress: "" }).error?.issues[0].message).toBe(V.forgotEmailRequired);
  });
  it("checks the reset passwords' length and match", () => {
    const base = { token: "t".repeat(43) };
    expect(passwordResetSchema.safeParse({ ...base, password: "short", confirmPassword: "short" }).error?.issues[0].message).toBe(V.resetPasswordLength);
    expect(passwordResetSchema.safeParse({ ...base, password: "longenough", confirmPassword: "different1" }).error?.issues[0].message).toBe(V.resetPasswordsMismatch);
  });
});

describe("contact and subscribe messages", () => {
  it("names every missing contact field", () => {
    const e = fieldErrors(contactSchema.safeParse({}).error!);
    expect(e).toMatchObject({
      firstName: V.firstNameRequired,
      lastName: V.lastNameRequired,
      email: V.emailRequired,
      subject: V.subjectRequired,
      message: V.messageRequired,
    });
  });
  it("names every missing subscribe field", () => {
    const e = fieldErrors(subscribeSchema.safeParse({}).error!);
    expect(e).toMatchObject({ firstName: V.firstNameRequired, lastName: V.lastNameRequired, emailAddress: V.emailRequired });
  });
});

describe("text rules: one-line fields and message bodies", () => {
  const name = singleLineText("First name", { max: 100, required: V.firstNameRequired });
  const body = multiLineText("Your message", { max: 5000, required: V.messageRequired });
  const firstMessage = (schema: z.ZodMiniType, value: unknown) => schema.safeParse(value).error?.issues[0].message;

  it.each([
    ["Eve\r\nBcc: victim@example.com", "CR LF"],
    ["Eve\nNew paragraph", "LF"],
    ["Eve\rx", "CR"],
    ["Eve\tFan", "tab"],
    ["Eve\u0000", "NUL"],
    ["Eve\u001b[31m", "ESC"],
    ["Eve\u007f", "DEL"],
    ["Eve\u0085Fan", "C1 next line"],
    ["Eve\u009b", "C1 CSI"],
    ["Eve\u2028Fan", "line separator"],
    ["Eve\u2029Fan", "paragraph separator"],
    ["Eve\u202enaF", "right-to-left override"],
    ["Eve\u2066Fan", "isolate"],
  ])("a one-line field refuses %j (%s) with a message naming the field", (value) => {
    expect(firstMessage(name, value)).toBe(T.controlCharacters("First name"));
  });

  it.each([["\ud83d"], ["Eve \ud83d"], ["\ude00 Eve"], ["Eve \ude00\ud83d"]])("refuses the lone surrogate in %j", (value) => {
    expect(firstMessage(name, value)).toBe(T.brokenCharacters("First name"));
    expect(firstMessage(body, `Hello ${value}`)).toBe(T.brokenCharacters("Your message"));
  });

  it("trims, keeps real text (accents, emoji, right-to-left scripts) and still says what is required", () => {
    expect(name.parse("  Renée 🏈 Ó'Brien-Łukasz  ")).toBe("Renée 🏈 Ó'Brien-Łukasz");
    expect(name.parse("שלום")).toBe("שלום");
    expect(firstMessage(name, "   ")).toBe(V.firstNameRequired);
    expect(firstMessage(name, undefined)).toBe(V.firstNameRequired);
    expect(firstMessage(name, "x".repeat(101))).toBe(T.tooLong("First name", 100));
  });

  it("lets a message run over lines with tabs, and refuses NUL and the other controls", () => {
    expect(body.parse("  Line one\r\nLine two\n\tindented\n  ")).toBe("Line one\r\nLine two\n\tindented");
    for (const bad of ["a\u0000b", "a\u0007b", "a\u000bb", "a\u000cb", "a\u001bb", "a\u007fb", "a\u0085b", "a\u009fb"]) {
      expect(firstMessage(body, bad), JSON.stringify(bad)).toBe(T.messageControlCharacters("Your message"));
    }
    expect(firstMessage(body, " \n ")).toBe(V.messageRequired);
  });

  /** Every string field of every shared schema, with a valid value for the others. */
  const valid = {
    signUp: { firstName: "Ada", lastName: "Fan", emailAddress: "ada@example.com", emailAddressConfirm: "ada@example.com", password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true, BillingAddress1: "1 Main St", BillingAddress2: "Apt 2", City: "Pittsburgh", State: "PA", ZipCode: "15212", phoneNumber: "412-555-0100" },
    login: { emailAddress: "ada@example.com", password: "Steel3rs!" },
    resetRequest: { emailAddress: "ada@example.com" },
    reset: { token: "t".repeat(43), password: "Steel3rs!", confirmPassword: "Steel3rs!" },
    contact: { firstName: "Ada", lastName: "Fan", email: "ada@example.com", subject: "Question", message: "Hello" },
    subscribe: { firstName: "Ada", lastName: "Fan", emailAddress: "ada@example.com" },
    mailchimp: { firstName: "Ada", lastName: "Fan", email: "ada@example.com", audience: "aud123" },
  };
  const schemas: [string, z.ZodMiniType, Record<string, unknown>][] = [
    ["sign-up", signUpSchema, valid.signUp],
    ["login", loginSchema, valid.login],
    ["forgot password", passwordResetRequestSchema, valid.resetRequest],
    ["reset password", passwordResetSchema, valid.reset],
    ["contact", contactSchema, valid.contact],
    ["subscribe", subscribeSchema, valid.subscribe],
    ["Mailchimp subscribe", mailchimpSubscribeSchema, valid.mailchimp],
  ];
  /** Only compared with the stored hash (not stored, shown or sent): see loginSchema. */
  const exempt = new Set(["login.password"]);

  it.each(schemas)("%s: the valid form passes", (_label, schema, form) => {
    expect(schema.safeParse(form).success).toBe(true);
  });

  it.each(schemas)("%s: every text field refuses a NUL, a lone surrogate, and (one-line fields) a line break", (label, schema, form) => {
    for (const [field, value] of Object.entries(form)) {
      if (typeof value !== "string" || exempt.has(`${label.split(" ")[0]}.${field}`)) continue;
      const multiLine = field === "message";
      const bad = [`${value}\u0000`, `${value.slice(0, -1)}\ud800`, ...(multiLine ? [] : [`${value.slice(0, 2)}\r\n${value.slice(2)}`])];
      for (const b of bad) {
        const r = schema.safeParse({ ...form, [field]: b });
        expect(r.success, `${label}.${field} = ${JSON.stringify(b)}`).toBe(false);
        // The issue is on the field itself (for a confirmation: it no longer matches).
        expect(r.error!.issues.some((i) => i.path[0] === field), `${label}.${field}`).toBe(true);
      }
    }
  });
});

describe("ticket arithmetic", () => {
  it("buys a ticket only with exactly the price in dollars", () => {
    expect(paymentBuysTicket({ amountCents: 699, currency: "usd" }, 699)).toBe(true);
    expect(paymentBuysTicket({ amountCents: 699, currency: "USD" }, 699)).toBe(true);
    expect(paymentBuysTicket({ amountCents: 100, currency: "usd" }, 699)).toBe(false);
    expect(paymentBuysTicket({ amountCents: 6990, currency: "usd" }, 699)).toBe(false);
    expect(paymentBuysTicket({ amountCents: 699, currency: "eur" }, 699)).toBe(false);
  });

  it("adds the days to today when there is no valid ticket, to the end date when there is", () => {
    expect(ticketValidThrough(null, "2026-11-22", 120)).toBe("2027-03-22");
    expect(ticketValidThrough("2026-11-01", "2026-11-22", 120)).toBe("2027-03-22");
    expect(ticketValidThrough("2026-12-01", "2026-11-22", 120)).toBe("2027-03-31");
  });
  it("crosses month, year and leap-day boundaries by calendar days", () => {
    expect(addDays("2027-12-31", 1)).toBe("2028-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
  });
  it("tells paid, expired and unpaid apart on the last valid day and the day after", () => {
    expect(accessStatus("2026-11-22", "2026-11-22")).toBe("paid");
    expect(accessStatus("2026-11-21", "2026-11-22")).toBe("expired");
    expect(accessStatus(null, "2026-11-22")).toBe("unpaid");
  });
});

describe("what a refused form sends back (decision 036, addendum 3)", () => {
  it("keeps the text typed, at most 2000 characters a field, and never a password or a file", () => {
    const form = { firstName: "Ada", message: "x".repeat(2500), password: "Steel3rs!", currentPassword: "Old3rs!!", passwordConfirm: "Steel3rs!", upload: new Blob(["a"]) };
    expect(typedValues(form)).toEqual({ firstName: "Ada", message: "x".repeat(2000) });
  });
});
