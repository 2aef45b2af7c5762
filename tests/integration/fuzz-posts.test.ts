/**
 * Every POST route of the site, pages and API, fed with hostile values on both databases: NUL
 * bytes, lone surrogates, control characters, huge strings, wrong types, malformed encodings.
 * Whatever comes in, the answer is never a 5xx (a client's input is a 4xx, or a success), and a
 * well-formed post first gets each route's known answer, so a route that vanished fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_MESSAGES } from "~/shared/messages";
import { gifts } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, dateFromToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** The buyer and recipient of a gift: the form's fields, and the draft made in beforeAll. */
const GIFT_PEOPLE = {
  buyerFirstName: "Ada",
  buyerLastName: "Lovelace",
  buyerEmail: "ada@example.com",
  recipientFirstName: "Charles",
  recipientLastName: "Babbage",
  recipientEmail: "charles@example.com",
};

const BASE = {
  firstName: "Ada",
  lastName: "Lovelace",
  emailAddress: "ada@example.com",
  emailAddressConfirm: "ada@example.com",
  email: "ada@example.com",
  password: "correct-horse1",
  passwordConfirm: "correct-horse1",
  confirmPassword: "correct-horse1",
  subject: "Question",
  message: "Hello museum",
  subscribe: "on",
  termsAndConditions: "on",
  token: "a".repeat(43),
  id: "pm_card_visa",
  receipt_email: "ada@example.com",
  cardNumber: "4242424242424242",
  expiry: "12/40",
  cvc: "123",
  zip: "15212",
  attemptId: "00000000-0000-4000-8000-000000000000",
  paymentIntentId: "pi_123",
  audience: "museum-newsletter",
  currentPassword: "correct-horse1",
  reminders: "off",
  ...GIFT_PEOPLE,
  deliverOn: new Date().toISOString().slice(0, 10),
  intent: "signup",
  emailOptIn: "on",
};

/** A gift draft made in beforeAll, so its payment page's action runs all the way. */
const GIFT_DRAFT_ID = "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b";

type Fields = (keyof typeof BASE)[];

const PAGE_ROUTES: [string, Fields][] = [
  ["/admission", ["firstName", "lastName", "emailAddress", "emailAddressConfirm", "password", "passwordConfirm", "termsAndConditions"]],
  ["/login", ["emailAddress", "password"]],
  ["/contact", ["firstName", "lastName", "email", "subject", "message", "subscribe"]],
  ["/subscribe", ["firstName", "lastName", "emailAddress", "subscribe"]],
  ["/password/request", ["emailAddress"]],
  ["/password/reset", ["token", "password", "confirmPassword"]],
  ["/admission/payment", ["cardNumber", "expiry", "cvc", "zip", "attemptId"]],
  ["/logout", []],
  ["/account/name", ["firstName", "lastName"]],
  ["/account/email", ["emailAddress", "currentPassword"]],
  ["/account/email/confirm", ["token"]],
  ["/account/password", ["currentPassword", "password", "passwordConfirm"]],
  ["/account/reminders", ["reminders"]],
  ["/email/unsubscribe", ["token"]],
  ["/gift", ["buyerFirstName", "buyerLastName", "buyerEmail", "recipientFirstName", "recipientLastName", "recipientEmail", "message", "deliverOn"]],
  [`/gift/${GIFT_DRAFT_ID}/pay`, ["cardNumber", "expiry", "cvc", "zip", "attemptId"]],
  [`/gift/redeem/${"a".repeat(43)}`, ["intent", "firstName", "lastName", "emailAddress", "emailAddressConfirm", "password", "passwordConfirm", "termsAndConditions"]],
];

const API_ROUTES: [string, Fields][] = [
  ["/api/users", ["firstName", "lastName", "emailAddress", "emailAddressConfirm", "password", "passwordConfirm", "termsAndConditions"]],
  ["/api/users/login", ["emailAddress", "password"]],
  ["/api/users/relogin", []],
  ["/api/users/logout", ["emailAddress"]],
  ["/api/users/request-reset", ["emailAddress"]],
  ["/api/users/reset-password", ["token", "password", "confirmPassword"]],
  ["/api/stripe/payment", ["id", "receipt_email"]],
  ["/api/stripe/payment/confirm", ["paymentIntentId"]],
  ["/api/email/contact", ["firstName", "lastName", "email", "subject", "message", "subscribe"]],
  ["/api/contact", ["firstName", "lastName", "email", "subject", "message", "subscribe"]],
  ["/api/mc/subscribe", ["firstName", "lastName", "email", "audience"]],
  ["/api/subscribes", ["firstName", "lastName", "emailAddress", "subscribe"]],
];

/** Hostile values for one field: strings for forms, any JSON value for the API. */
const HOSTILE: unknown[] = [
  "",
  "\u0000",
  "Ada\u0000Lovelace",
  "\ud800",
  "x\udfffy",
  "Ada\r\nBcc: victim@example.com",
  "\u0001\u0007\u001b[31m",
  "\u202eevil",
  "x".repeat(70_000),
  "é".repeat(5_000),
  "'; drop table users; --",
  "<script>alert(1)</script>",
  "%00%ZZ",
  "ada@example.com\u0000",
  "🏒⚾🏈",
  123,
  -1.5e308,
  true,
  null,
  ["a", "b"],
  { $gt: "" },
];

const RAW_BODIES: [contentType: string, body: string | Uint8Array<ArrayBuffer>][] = [
  ["application/json", "{not json"],
  ["application/json", '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'],
  ["application/json", "[]"],
  ["application/json", '"just a string"'],
  ["application/json", "null"],
  ["application/json", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ["application/x-www-form-urlencoded", "firstName=%ZZ&lastName=%"],
  ["application/x-www-form-urlencoded", "a=1&a=2&a=3&__proto__[x]=1"],
  ["application/x-www-form-urlencoded", new Uint8Array([0x61, 0x3d, 0xc3, 0x28, 0xff])],
  ["multipart/form-data; boundary=zz", "--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--zz--"],
  ["multipart/form-data; boundary=zz", "--zz\r\nbroken"],
  ["text/plain", "hello"],
  ["application/xml", "<a/>"],
];

/**
 * The hostile values a form can carry: its fields are text, so a number, a boolean, null, an
 * array or an object would only arrive as the ordinary text of its String() ("123", "a,b").
 */
const HOSTILE_TEXT = HOSTILE.filter((v): v is string => typeof v === "string");

function formBody(fields: Fields, field: string | null, value: string | null): string {
  const params = new URLSearchParams();
  for (const f of fields) params.set(f, f === field ? (value ?? "") : BASE[f]);
  return params.toString();
}

function jsonBody(fields: Fields, field: string | null, value: unknown): string {
  const body: Record<string, unknown> = {};
  for (const f of fields) body[f] = f === field ? value : f === "subscribe" || f === "termsAndConditions" ? true : BASE[f];
  return JSON.stringify(body);
}

describe.each(drivers)("hostile POST bodies on %s", (kind) => {
  let server: TestServer;
  let cookie: string;
  const failures: string[] = [];
  let sent = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: false });
    cookie = (await createSignedInAccount(server.services, { validThrough: dateFromToday(-3) })).cookie;
    await server.services.database.db.insert(gifts).values({
      id: GIFT_DRAFT_ID,
      ...GIFT_PEOPLE,
      deliverOn: dateFromToday(1),
      amountCents: 699,
      daysGranted: 120,
    });
  });
  afterAll(() => server?.close());

  async function send(path: string, contentType: string, body: string | Uint8Array<ArrayBuffer>, signedIn: boolean) {
    const headers: Record<string, string> = { "content-type": contentType };
    if (signedIn) headers.cookie = cookie;
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers, body, redirect: "manual" });
    await res.arrayBuffer();
    sent++;
    if (res.status >= 500) failures.push(`${res.status} ${path} ${contentType} ${String(body).slice(0, 60)}`);
    return res.status;
  }

  it("reaches every route's own action with a well-formed post: the statuses each route is known to answer", async () => {
    // Written out, not derived: a route that vanished answers 404 (or 405) and fails here,
    // where "below 500" alone would pass.
    const statuses: Record<string, number> = {};
    for (const [path, fields] of PAGE_ROUTES) statuses[path] = await send(path, "application/x-www-form-urlencoded", formBody(fields, null, null), false);
    for (const [path, fields] of API_ROUTES) statuses[path] = await send(path, "application/json", jsonBody(fields, null, null), false);
    expect(statuses).toEqual({
      "/admission": 302,
      "/login": 200,
      "/contact": 200,
      "/subscribe": 200,
      "/password/request": 200,
      "/password/reset": 400,
      "/admission/payment": 401,
      "/logout": 302,
      // Signed out: the account pages send to /login.
      "/account/name": 302,
      "/account/email": 302,
      "/account/email/confirm": 302,
      "/account/password": 302,
      "/account/reminders": 302,
      // The page's own answer to an unknown link.
      "/email/unsubscribe": 404,
      "/gift": 302,
      [`/gift/${GIFT_DRAFT_ID}/pay`]: 302,
      [`/gift/redeem/${"a".repeat(43)}`]: 409,
      "/api/users": 409,
      "/api/users/login": 200,
      "/api/users/relogin": 401,
      "/api/users/logout": 200,
      "/api/users/request-reset": 200,
      "/api/users/reset-password": 400,
      "/api/stripe/payment": 401,
      "/api/stripe/payment/confirm": 401,
      "/api/email/contact": 200,
      "/api/contact": 201,
      "/api/mc/subscribe": 200,
      "/api/subscribes": 200,
    });
  });

  it("answers every hostile page form post (document and .data) below 500", async () => {
    for (const [path, fields] of PAGE_ROUTES) {
      for (const field of [null, ...fields]) {
        for (const value of field === null ? [null] : HOSTILE_TEXT) {
          const body = formBody(fields, field, value);
          await send(path, "application/x-www-form-urlencoded", body, false);
          await send(`${path}.data`, "application/x-www-form-urlencoded", body, true);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers every hostile API body below 500", async () => {
    for (const [path, fields] of API_ROUTES) {
      for (const field of [null, ...fields]) {
        for (const value of field === null ? [null] : HOSTILE) {
          await send(path, "application/json", jsonBody(fields, field, value), sent % 2 === 0);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("refuses a page post with no body and no form type (415, the accepted type named), and never answers one with a 5xx", async () => {
    for (const [path] of PAGE_ROUTES) {
      for (const suffix of ["", ".data"]) {
        const res = await fetch(`${server.url}${path}${suffix}`, { method: "POST", redirect: "manual" });
        // The one-click unsubscribe also takes multipart/form-data (RFC 8058).
        const accepted = path === "/email/unsubscribe" ? "application/x-www-form-urlencoded or multipart/form-data" : "application/x-www-form-urlencoded";
        expect([path + suffix, res.status, await res.text()]).toEqual([path + suffix, 415, HOST_MESSAGES.unsupportedType(accepted)]);
      }
    }
    for (const [path] of API_ROUTES) {
      const res = await fetch(`${server.url}${path}`, { method: "POST", redirect: "manual" });
      await res.arrayBuffer();
      expect([path, res.status < 500]).toEqual([path, true]);
    }
  });

  it("answers malformed encodings and wrong content types below 500 on every route", async () => {
    for (const [path] of [...PAGE_ROUTES, ...API_ROUTES]) {
      for (const [type, body] of RAW_BODIES) await send(path, type, body, false);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
