/**
 * The owner's side of the stored-page front (decision 045): a request the front passed on came
 * over the owner's internal Unix socket, which has no address. The front names the address of
 * the peer that sent the request to it, with the secret both processes got from the primary; the
 * owner then gives the request that address as its socket's, for Express's `ip`, `ips`,
 * `protocol` and `host`. Express's own getters run on it, so TRUST_PROXY means exactly what it
 * means without the front: the front is not a hop.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import express from "express";

/** The address of the peer that sent the request to the front. */
export const FRONT_PEER = "x-museum-front-peer";
/** The owner's secret for this run: only the front knows it. */
export const FRONT_SECRET = "x-museum-front-secret";

/** Express's getters that read the socket's address (`secure` and `hostname` read these). */
const ADDRESS_GETTERS = ["ip", "ips", "protocol", "host"] as const;

const sameSecret = (given: string, secret: string) => given.length === secret.length && timingSafeEqual(Buffer.from(given), Buffer.from(secret));

/**
 * Takes the front's two headers off `req` and, when the secret is right, gives the request the
 * peer's address. False (the request must be refused) when either is missing or wrong: only the
 * front may speak to the internal socket.
 */
export function acceptFromFront(req: IncomingMessage, secret: string): boolean {
  const peer = req.headers[FRONT_PEER];
  const given = req.headers[FRONT_SECRET];
  delete req.headers[FRONT_PEER];
  delete req.headers[FRONT_SECRET];
  if (typeof peer !== "string" || typeof given !== "string" || !sameSecret(given, secret)) return false;
  const socket = { remoteAddress: peer || undefined, encrypted: false };
  for (const name of ADDRESS_GETTERS) {
    const getter = Object.getOwnPropertyDescriptor(express.request, name)?.get;
    if (!getter) throw new Error(`express.request has no ${name} getter`);
    Object.defineProperty(req, name, {
      configurable: true,
      enumerable: true,
      // Read once Express has made `req` its own (app, get()): its getter, with the peer as the socket.
      get(this: IncomingMessage) {
        return getter.call(Object.create(this, { socket: { value: socket }, connection: { value: socket } }));
      },
    });
  }
  return true;
}
