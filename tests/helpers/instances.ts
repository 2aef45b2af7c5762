/**
 * Compiled hosts as `npm start` runs them, and Debian's nginx in front of them, for the tests
 * that run several instances or stop one (multi-instance, graceful drain, connection faults).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { openDatabase, type DatabaseHandle } from "../../server/db/client";
import { createPostgresDatabase, isPostgresReachable } from "./databases";

export const HOST = path.resolve("build/host/index.js");

export function findNginx(): string | undefined {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]) if (existsSync(candidate)) return candidate;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request on a fresh connection, from `from` (a loopback address: a client of its own for the rate limits). */
export function call(
  port: number,
  pathName: string,
  options: { method?: string; body?: unknown; form?: Record<string, string>; cookie?: string; from?: string; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Answer> {
  // A JSON body, or a page form's (url-encoded) with `form`.
  const body = options.form ? new URLSearchParams(options.form).toString() : options.body === undefined ? undefined : JSON.stringify(options.body);
  const type = options.form ? "application/x-www-form-urlencoded" : "application/json";
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: pathName,
        method: options.method ?? (body ? "POST" : "GET"),
        agent: false,
        localAddress: options.from,
        headers: {
          ...(body ? { "content-type": type, "content-length": Buffer.byteLength(body) } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const text = (encoding === "br" ? brotliDecompressSync(raw) : encoding === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(body);
  });
}

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [HOST], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "warn", WARM_RENDITIONS: "false", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (d: Buffer) => (out += d.toString());
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const instance = { name, port, child, output: () => out, exited };
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited during start-up:\n${out}`);
    try {
      if ((await call(port, "/readyz", { timeoutMs: 1000 })).status === 200) return instance;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`instance ${name} did not start:\n${out}`);
}

export function nginxConfig(dir: string, listen: number, upstreams: number[]): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream museum {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join("\n")}
    keepalive 16;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://museum;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

/** Starts nginx with `config` (default `nginxConfig`) in `dir` and waits until it answers /readyz through an instance. */
export async function startNginx(dir: string, listen: number, upstreams: number[], config = nginxConfig(dir, listen, upstreams)): Promise<{ child: ChildProcess; log(): string; stop(): Promise<void> }> {
  const binary = findNginx();
  if (!binary) throw new Error("nginx is not installed");
  writeFileSync(path.join(dir, "nginx.conf"), config);
  const child = spawn(binary, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  for (let i = 0; i < 100; i++) {
    try {
      if ((await call(listen, "/readyz", { timeoutMs: 1000 })).status === 200) break;
    } catch {
      // nginx not up yet
    }
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    log: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGQUIT");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** Why the nginx tests cannot run here (nginx or PostgreSQL missing), or null; in CI a missing one throws. */
export async function missingForNginxTests(what: string): Promise<string | null> {
  const missing = !findNginx()
    ? "nginx is not installed (apt-get install -y nginx)"
    : !(await isPostgresReachable())
      ? "PostgreSQL is unreachable"
      : null;
  if (missing && process.env.CI) throw new Error(`the ${what} test needs nginx and PostgreSQL in CI: ${missing}`);
  if (missing) console.warn(`[tests] skipping the ${what} test: ${missing}`);
  return missing;
}

export interface TwoInstances {
  dir: string;
  database: { url: string; drop(): Promise<void> };
  /** A connection pool of the test's own on the instances' database. */
  handle: DatabaseHandle;
  a: Instance;
  b: Instance;
  nginx: Awaited<ReturnType<typeof startNginx>>;
  nginxPort: number;
  /** Stops what still runs and removes the database and the directory. */
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database, instance A (it migrates and loads the demo collection), then B on
 * the same database, and nginx in front of both; `env` is given to both, `envA`/`envB` to one.
 */
export async function startTwoInstances(name: string, env: Record<string, string>, envA: Record<string, string>, envB: Record<string, string>): Promise<TwoInstances> {
  const dir = mkdtempSync(path.join(tmpdir(), `museum-${name}-`));
  const database = await createPostgresDatabase();
  const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
  const shared = { DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${nginxPort}`, TRUST_PROXY: "1", ...env };
  const a = await startInstance("A", portA, { ...shared, DATA_DIR: path.join(dir, "a"), ...envA });
  const b = await startInstance("B", portB, { ...shared, DATA_DIR: path.join(dir, "b"), ...envB });
  const nginx = await startNginx(dir, nginxPort, [portA, portB]);
  const handle = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
  return {
    dir,
    database,
    handle,
    a,
    b,
    nginx,
    nginxPort,
    async close() {
      for (const instance of [a, b]) {
        if (instance.child.exitCode === null && instance.child.signalCode === null) {
          instance.child.kill("SIGTERM");
          await instance.exited;
        }
      }
      await nginx.stop();
      await handle.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
