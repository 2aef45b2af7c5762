// `npm run seed`: builds when needed, then loads the demo collection (idempotent).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

if (!existsSync("build/host/seed-cli.js")) {
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(path.resolve("build/host/seed-cli.js"));
