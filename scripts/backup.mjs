// `npm run backup`: builds when needed, then runs the command (server/backup-cli.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

if (!existsSync("build/host/backup-cli.js")) {
  const result = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(path.resolve("build/host/backup-cli.js"));
