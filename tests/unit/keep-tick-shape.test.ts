/**
 * process.nextTick stays on V8's fast path (decision 044). Node builds each tick object with an
 * object literal; after a few full garbage collections V8 has given that literal new hidden
 * classes, and its stores go megamorphic: every tick object then costs a call into V8's runtime.
 * With server/keep-tick-shape.ts imported first, the stores keep one hidden class each.
 *
 * The proof reads V8's own feedback for process.nextTick (`%DebugPrint`, in a child process with
 * --allow-natives-syntax), after rounds of ticks and full collections, with and without the
 * module. The run without it shows that this Node still loses the maps, so the test can fail.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

// The module as plain JavaScript, so the child needs no TypeScript loader of its own.
const dir = mkdtempSync(path.join(tmpdir(), "museum-tick-shape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keeper = path.join(dir, "keep-tick-shape.mjs");
writeFileSync(keeper, transformSync(readFileSync("server/keep-tick-shape.ts", "utf8"), { loader: "ts", format: "esm" }).code);

/** The nextTick literal's store feedback states, after 12 rounds of 20,000 ticks and a full GC. */
function literalStoreStates(withKeeper: boolean): string[] {
  const code = `
${withKeeper ? `await import(${JSON.stringify(keeper)});` : ""}
const { AsyncLocalStorage } = await import("node:async_hooks");
const storage = new AsyncLocalStorage();
for (let round = 0; round < 12; round++) {
  await storage.run({ round }, async () => {
    for (let i = 0; i < 20000; i++) await new Promise((resolve) => process.nextTick(resolve, i));
  });
  globalThis.gc();
}
%DebugPrint(process.nextTick);
`;
  const child = spawnSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(child.status, child.stderr).toBe(0);
  return [...child.stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]);
}

describe("the tick objects' hidden classes", () => {
  it("stay one per store of nextTick's literal with the module, and go megamorphic without it", (context) => {
    const without = literalStoreStates(false);
    if (without.length === 0) {
      // A Node built without V8's object printer prints no feedback slots.
      console.log("skipped: this Node's %DebugPrint prints no feedback slots");
      context.skip();
    }
    expect(without).toContain("MEGAMORPHIC");

    const withKeeper = literalStoreStates(true);
    expect(withKeeper.length).toBeGreaterThan(0);
    expect(withKeeper.every((state) => state === "MONOMORPHIC")).toBe(true);
  }, 120_000);
});
