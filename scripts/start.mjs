// `npm start`: builds the site when the build is missing or older than the sources, then runs
// the compiled host (which migrates, seeds an empty database and serves). On PostgreSQL the host
// forks WEB_CONCURRENCY workers (default: the core count) that run build/host/index.js itself,
// not this script, so only this process ever checks or rebuilds the build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "server", "drizzle", "vite-plugins", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
const STAMP = "build/host/index.js";

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const built = existsSync(STAMP) && existsSync("build/server/index.js") ? statSync(STAMP).mtimeMs : 0;
const sources = Math.max(...SOURCES.map(newestMtime));
if (built < sources) {
  console.log(built ? "Sources changed: rebuilding the site..." : "Building the site (first start)...");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.includes("--build-only")) process.exit(0);
process.env.NODE_ENV ??= "production";
await import(path.resolve(STAMP));
