// The bare Node server bench/run.mjs measures the origin against: node:http writing one
// stored answer, the same bytes and headers as the site sends (its home page, brotli), to every
// request, and nothing else: no routing, no log line, no cache lookup. With more than one
// worker, node:cluster with that many workers (the primary hands connections round-robin, as
// the site's primary does on PostgreSQL); with one, a single process, as the site on PGlite.
//
//   node bench/bare-node.mjs <port> <file of bytes> <workers>
//
// `<file>.headers.json` holds the answer's headers as a flat [name, value, name, value, ...]
// list (the site's raw headers without Date, Connection, Keep-Alive and Transfer-Encoding,
// which Node writes itself).
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import http from "node:http";

const [port, file, workersArg] = process.argv.slice(2);
const workers = Number(workersArg ?? 1);
if (!port || !file || !Number.isInteger(workers) || workers < 1) {
  console.error("usage: node bench/bare-node.mjs <port> <file of bytes> <workers>");
  process.exit(2);
}

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const body = readFileSync(file);
  const headers = JSON.parse(readFileSync(`${file}.headers.json`, "utf8"));
  http
    .createServer((req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    })
    .listen(Number(port), "127.0.0.1");
}
