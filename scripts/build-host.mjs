// Compiles the Express host, the seed and admin:create commands (server/*.ts and what they import) into
// build/host/. Packages stay external: they are installed in node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["server/index.ts", "server/seed-cli.ts", "server/admin-cli.ts"],
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
