/**
 * The deployment guide's nginx block, with its cache, in front of a test server for one
 * `describe` block (decision 054): started before its tests, stopped and its folder removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { readmeNginxConfig } from "../../bench/readme-nginx.mjs";
import { freePort, startNginx } from "./instances";

/** `upstream()`: the site's port, read when the block starts. `port()`: nginx's. */
export function nginxInFront(upstream: () => number, prefix = "museum-nginx-cache-") {
  let dir: string;
  let nginxPort = 0;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    nginxPort = await freePort();
    nginx = await startNginx(dir, nginxPort, [upstream()], readmeNginxConfig(dir, nginxPort, [upstream(), upstream()]));
  }, 30_000);
  afterAll(async () => {
    await nginx?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return { port: () => nginxPort };
}
