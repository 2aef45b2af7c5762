/**
 * The processes of a PGlite site with a stored-page front (decision 045): the primary (listens,
 * hands connections over, relays), the owner (the whole site, holding PGlite) and the front
 * (stored pages, no database). The primary names each worker's role and gives both the owner's
 * internal socket and a secret for this run, in their environment; the messages between the
 * owner and the front go through the primary, in order.
 */
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";

export type Role = "owner" | "front";

/** Sent by the owner: a visitor's page the front may answer (`key`, `page`, `ageMs`). */
export const SHARED_PAGE = "museum:shared-page";
/** Sent by the owner: every page shared before is stale. */
export const PAGES_CHANGED = "museum:pages-changed";
/** Sent by a front that has just started: the owner shares every page it holds. */
export const WANT_PAGES = "museum:want-pages";
/** Sent by the owner once it answers on its internal socket (and again to a front that asks for pages): the front may take connections. */
export const OWNER_READY = "museum:owner-ready";
/** Sent by the primary to a stopping owner: the front has exited, nothing more will be passed on. */
export const FRONT_GONE = "museum:front-gone";

const ROLE = "MUSEUM_ROLE";
const SOCKET = "MUSEUM_OWNER_SOCKET";
const SECRET = "MUSEUM_FRONT_SECRET";

/** In the primary: the environment of each role's workers. */
export function frontEnvironment(): (role: Role) => Record<string, string> {
  const id = `${process.pid}-${randomBytes(6).toString("hex")}`;
  // Linux's abstract namespace (no file to clean up; its leading NUL byte is added in the worker,
  // an environment variable cannot hold one); elsewhere a socket file in the temp folder.
  const socket = process.platform === "linux" ? `museum-owner-${id}` : path.join(tmpdir(), `museum-owner-${id}.sock`);
  const secret = randomBytes(32).toString("hex");
  return (role) => ({ [ROLE]: role, [SOCKET]: socket, [SECRET]: secret });
}

/** In a worker: its role and the owner's socket and secret, when it runs beside a front. */
export function frontRole(): { role: Role; socket: string; secret: string } | null {
  const role = process.env[ROLE];
  const socket = process.env[SOCKET];
  const secret = process.env[SECRET];
  if ((role !== "owner" && role !== "front") || !socket || !secret) return null;
  return { role, socket: process.platform === "linux" ? `\0${socket}` : socket, secret };
}
