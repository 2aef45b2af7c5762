/**
 * The host's streamed upload body (server/http/body-limits.ts): a rule marked `stream` (named by
 * the route's policy, app/shared/route-policy.ts) hands the page a stream that errors the moment the body passes the rule's limit, and only console
 * photo uploads and the team form that carries its logo (decision 039) have such a rule; every other page form keeps its buffered 64 KB rule.
 */
import { Readable } from "node:stream";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, bodyLimitOf, BodyTooLargeError, limitedBodyStream } from "../../server/http/body-limits";
import { routeResolver } from "../helpers/test-server";

function fakeRequest(chunks: number, size: number) {
  let sent = 0;
  const readable = new Readable({
    read() {
      if (sent >= chunks) return this.push(null);
      sent++;
      this.push(Buffer.alloc(size, 1));
    },
  });
  return { req: readable as unknown as Request, sent: () => sent };
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return total;
    total += value.length;
  }
}

describe("streamed upload bodies", () => {
  it("passes a body within the limit through whole", async () => {
    const { req } = fakeRequest(10, 1000);
    expect(await drain(limitedBodyStream(req, 10_000))).toBe(10_000);
  });

  it("errors as soon as the body passes the limit, without reading the rest", async () => {
    const { req, sent } = fakeRequest(1000, 64 * 1024);
    await expect(drain(limitedBodyStream(req, 1024 * 1024))).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(sent()).toBeLessThan(40);
  });

  it("applies only to console photo uploads", async () => {
    const routes = await routeResolver();
    const bodyRuleFor = (path: string) => BODY_LIMITS[routes.resolve("POST", path).body];
    const upload = bodyRuleFor("/admin/exhibits/0b0f1c3e-5a5e-4a57-9f0e-2f1f7f2a9c11/photos/upload");
    expect(upload.stream).toBe(true);
    expect(upload.types).toEqual(["multipart/form-data"]);
    expect(upload.maxBytes).toBe(64 * 1024 * 1024);
    expect(bodyRuleFor("/admin/exhibits/0b0f1c3e-5a5e-4a57-9f0e-2f1f7f2a9c11/photos").stream).toBeUndefined();
    expect(bodyRuleFor("/admin/exhibits/0b0f1c3e-5a5e-4a57-9f0e-2f1f7f2a9c11/photos").maxBytes).toBe(64 * 1024);
    expect(bodyRuleFor("/contact").stream).toBeUndefined();
  });

  it("streams the team form, which carries its logo file, and holds its url-encoded posts to the page-form size (decision 039)", async () => {
    const routes = await routeResolver();
    const team = BODY_LIMITS[routes.resolve("POST", "/admin/teams/new").body];
    expect(team.stream).toBe(true);
    expect(team.types).toEqual(["multipart/form-data", "application/x-www-form-urlencoded"]);
    expect(bodyLimitOf(team, "multipart/form-data; boundary=x")).toBe(64 * 1024 * 1024);
    expect(bodyLimitOf(team, "application/x-www-form-urlencoded")).toBe(64 * 1024);
    expect(BODY_LIMITS[routes.resolve("POST", "/admin/categories/new").body].stream).toBeUndefined();
  });
});
