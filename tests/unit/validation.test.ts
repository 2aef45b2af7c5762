import { describe, expect, it } from "vitest";
import { fieldErrors, loginSchema, passwordResetRequestSchema, passwordResetSchema, signUpSchema } from "~/lib/account-schemas";
import { contactSchema, subscribeSchema } from "~/lib/contact-schemas";
import { VALIDATION as V } from "~/lib/messages";
import { accessStatus, addDays, ticketValidThrough } from "../../server/membership/ticket";

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

describe("ticket arithmetic", () => {
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
