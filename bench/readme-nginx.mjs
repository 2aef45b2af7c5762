// The nginx block of the deployment guide (docs/deployment.md) made runnable on one machine, for the benchmarks that
// put nginx in front of two local instances (bench/faults.mjs, bench/drain-loop.mjs).
import { chmodSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The deployment guide's nginx block, with the two local instances, plain HTTP on `listen`, and what nginx
 * needs to run unprivileged. One worker unless `workers` says otherwise; `debianHttp` adds what
 * Debian's /etc/nginx/nginx.conf sets around a site's block (`sendfile on; tcp_nopush on;`).
 */
export function readmeNginxConfig(dir, listen, [portA, portB], { errorLogLevel = "warn", workers = 1, debianHttp = false } = {}) {
  const readme = readFileSync(path.join(root, "docs", "deployment.md"), "utf8");
  const block = readme.match(/```nginx\n([\s\S]*?)```/)?.[1];
  if (!block || !block.includes("10.0.0.11:3000") || !block.includes("10.0.0.12:3000")) throw new Error("docs/deployment.md has no nginx block with 10.0.0.11:3000 and 10.0.0.12:3000");
  const site = block
    .replace(/^\s*server\s*\{\s*listen 80;.*$/m, "") // the redirect to HTTPS
    .replace(/^\s*ssl_\w+.*$/gm, "")
    .replace(/listen 443[^;]*;/, `listen 127.0.0.1:${listen};`)
    .replace("10.0.0.11:3000", `127.0.0.1:${portA}`)
    .replace("10.0.0.12:3000", `127.0.0.1:${portB}`)
    .replace("/var/cache/nginx/museum", `${dir}/cache`);
  // nginx started as root runs its workers as nobody, who must reach the cache folder inside `dir`.
  chmodSync(dir, 0o755);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t};`).join("\n");
  const http = debianHttp ? "  sendfile on;\n  tcp_nopush on;\n" : "";
  return `worker_processes ${workers};\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log ${errorLogLevel};\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n${http}${temp}\n${site}\n}\n`;
}
