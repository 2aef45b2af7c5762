// Compiles the Express host, the seed, admin:create, media:import, backup and restore commands (server/*.ts and what they import) into
// build/host/. Packages stay external: they are installed in node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts", "server/seed-cli.ts", "server/admin-cli.ts", "server/media-cli.ts", "server/backup-cli.ts", "server/restore-cli.ts"],
  outdir: "build/host",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
