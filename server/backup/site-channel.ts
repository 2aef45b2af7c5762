/**
 * The running site's local channel on PGlite (decision 046): PGlite is one process's database, so
 * `npm run backup` beside a running site asks the site to take the backup instead of opening
 * DATA_DIR itself. The channel is a Unix socket at DATA_DIR/run/site.sock inside a folder only
 * the site's user may enter; one JSON line asks (`{"command":"backup"}`), one JSON line answers.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Logger } from "../logger";

/** Unix socket paths are limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;

export function siteChannelPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), "run", "site.sock");
}

export type SiteAnswer = { ok: true; file: string; bytes: number } | { ok: false; error: string };

export interface SiteCommands {
  backup(): Promise<{ file: string; bytes: number }>;
}

/** Opens the channel (the caller holds DATA_DIR's lock, so a socket file left there is a crash's leftover). */
export async function openSiteChannel(dataDir: string, commands: SiteCommands, logger: Logger): Promise<{ close(): Promise<void> } | null> {
  const socketPath = siteChannelPath(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH) {
    logger.warn({ socketPath }, "DATA_DIR's path is too long for the site's local channel: `npm run backup` cannot ask this site (scheduled backups still run)");
    return null;
  }
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(socketPath), 0o700);
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    let text = "";
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 4_096) return socket.destroy();
      const end = text.indexOf("\n");
      if (end < 0) return;
      socket.removeAllListeners("data");
      void answer(text.slice(0, end)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });
  async function answer(line: string): Promise<SiteAnswer> {
    let command: unknown;
    try {
      command = (JSON.parse(line) as { command?: unknown }).command;
    } catch {
      return { ok: false, error: "not a command" };
    }
    if (command !== "backup") return { ok: false, error: `unknown command: ${String(command).slice(0, 40)}` };
    try {
      const { file, bytes } = await commands.backup();
      return { ok: true, file, bytes };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
  server.on("error", (error) => logger.warn({ err: error }, "the site's local channel failed"));
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(socketPath, () => resolve()));
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Asks the site on DATA_DIR; null when no site answers there (none runs, or it is still starting). */
export function askSite(dataDir: string, command: "backup"): Promise<SiteAnswer | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: siteChannelPath(dataDir) });
    socket.setEncoding("utf8");
    let text = "";
    let connected = false;
    socket.on("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify({ command })}\n`);
    });
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (!connected) return resolve(null);
      try {
        resolve(JSON.parse(text) as SiteAnswer);
      } catch {
        resolve({ ok: false, error: "the site closed the channel without an answer (did it stop?)" });
      }
    });
  });
}
