/**
 * One process at a time on a PGlite directory (decision 043). PGlite is PostgreSQL compiled to
 * WebAssembly, running inside the process that opened it: two processes that open the same
 * directory each believe they own its files, and their writes overwrite each other's pages (a
 * second `npm start`, a deploy that starts the new site before the old one stopped, `npm run
 * seed` beside the running site). Whoever opens the directory first holds a lock; the others are
 * refused with a message that names the holder and says what to do.
 *
 * The lock is a listening Unix socket, not a file: the kernel frees it the moment its process
 * ends, however it ends (a crash, `kill -9`, the OOM killer), so there is no stale lock to clean
 * up, no wait for one to expire, and no process id that a later process might reuse. On Linux the
 * socket lives in the abstract namespace (no file at all), named after the directory's real path;
 * elsewhere it is a socket file in the temporary directory, and one that nobody answers on is a
 * leftover of a crash and is replaced. A process that connects to the socket reads who holds it.
 *
 * The lock covers the processes of one machine (one network namespace on Linux): two containers
 * that mount the same volume each need their own DATA_DIR, or PostgreSQL.
 */
import { createHash } from "node:crypto";
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** What the holder tells a process that was refused. */
export interface DataDirHolder {
  pid: number;
  /** The holder's command, e.g. `node build/host/index.js`. */
  command: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

/** Another process has the PGlite directory open. `message` says which and what to do. */
export class DataDirInUseError extends Error {
  readonly code = "DATA_DIR_IN_USE";
  constructor(
    readonly dir: string,
    readonly holder: DataDirHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} (${holder.command}, since ${holder.since})`
      : "another process";
    super(
      [
        `The embedded database in ${dir} is already open in ${who}.`,
        "PGlite can be opened by one process at a time: stop that process first (Ctrl+C in its terminal,",
        holder ? `or kill ${holder.pid}), then run this again.` : "or kill it), then run this again.",
        "With PostgreSQL (DATABASE_URL), the site's commands can run while it serves.",
      ].join("\n"),
    );
    this.name = "DataDirInUseError";
  }
}

export interface DataDirLock {
  /** Frees the directory for the next process. */
  release(): Promise<void>;
}

/** The socket's address for `dir`: the same for every path that leads to the same directory. */
function lockAddress(dir: string): string {
  const absolute = path.resolve(dir);
  mkdirSync(absolute, { recursive: true });
  const id = createHash("sha256").update(realpathSync(absolute)).digest("hex").slice(0, 32);
  return process.platform === "linux" ? `\0pittsburgh-sports-museum/pglite/${id}` : path.join(tmpdir(), `pittsburgh-sports-museum-pglite-${id}.sock`);
}

/**
 * Takes the lock on `dir` (created when missing), or throws DataDirInUseError. The lock does not
 * keep the process alive; it is freed by `release()` or when the process ends.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const address = lockAddress(dir);
  const holder: DataDirHolder = {
    pid: process.pid,
    command: `${path.basename(process.argv0)} ${path.relative(process.cwd(), process.argv[1] ?? "")}`.trim(),
    since: new Date().toISOString(),
  };
  const server = net.createServer((socket) => {
    socket.on("error", () => undefined);
    socket.end(`${JSON.stringify(holder)}\n`);
  });
  server.on("error", () => undefined);
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const other = await askHolder(address);
    if (other.answered || address.startsWith("\0")) throw new DataDirInUseError(path.resolve(dir), other.holder);
    // A socket file nobody answers on: left by a process that crashed. Replace it.
    rmSync(address, { force: true });
    await listen(server, address);
  }
  server.unref();
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen({ path: address, exclusive: true }, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Connects to the lock and reads the holder's description (null if it said nothing readable). */
function askHolder(address: string): Promise<{ answered: boolean; holder: DataDirHolder | null }> {
  return new Promise((resolve) => {
    let text = "";
    let answered = false;
    const socket = net.connect({ path: address });
    socket.setEncoding("utf8");
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on("connect", () => (answered = true));
    socket.on("data", (chunk: string) => {
      if (text.length < 4_096) text += chunk;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({ answered, holder: parseHolder(text) }));
  });
}

function parseHolder(text: string): DataDirHolder | null {
  try {
    const value = JSON.parse(text) as Partial<DataDirHolder>;
    if (typeof value.pid === "number" && typeof value.command === "string" && typeof value.since === "string") return value as DataDirHolder;
  } catch {
    // Not ours, or cut short.
  }
  return null;
}
