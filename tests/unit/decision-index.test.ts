import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("the decision index lists every decision record, by its file", () => {
  const records = readdirSync("docs/decisions").filter((name) => /^\d{3}-.+\.md$/.test(name));
  const index = readFileSync("docs/decisions/README.md", "utf8");
  expect(records.length).toBeGreaterThan(50);
  expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([]);
});
