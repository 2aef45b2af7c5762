// `npm run lint`'s copy-paste check: jscpd (configured in .jscpd.json: app/ and server/, six or
// more lines and 50 tokens of the same code) lists the pairs of places that repeat each other,
// and this fails when there are more than MAX_PAIRS. One piece of code serves where the logic is
// one; a new pair past the limit is a helper to write, or an old pair to remove first.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MAX_PAIRS = 20;
const REPORT = "node_modules/.cache/jscpd/jscpd-report.json";

const run = spawnSync("npx", ["jscpd", "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
if (run.status !== 0) process.exit(run.status ?? 1);
const { statistics, duplicates } = JSON.parse(readFileSync(REPORT, "utf8"));
const pairs = duplicates.map((d) => `  ${d.firstFile.name}:${d.firstFile.start}-${d.firstFile.end} = ${d.secondFile.name}:${d.secondFile.start}-${d.secondFile.end} (${d.lines} lines)`);
if (statistics.total.clones > MAX_PAIRS) {
  console.error(`jscpd: ${statistics.total.clones} repeated pieces of code in app/ and server/, more than ${MAX_PAIRS}:\n${pairs.join("\n")}`);
  process.exit(1);
}
console.log(`jscpd: ${statistics.total.clones} repeated pieces of code in app/ and server/ (at most ${MAX_PAIRS}; ${statistics.total.percentage}% of the lines)`);
