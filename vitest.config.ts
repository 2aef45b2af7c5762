import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    // Generous: opening PGlite and migrating takes seconds, and far longer on a busy 2-core machine;
    // a test that hangs still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration files each open their own databases; two workers match the machine.
    maxWorkers: 2,
    // The files of a worker share its loaded modules instead of importing the server again for
    // each file, which was a fifth of the suite's time (docs/benchmarks.md, "CI"): every file
    // makes its own services, servers and databases, and none relies on a module's state from
    // another.
    isolate: false,
  },
});
