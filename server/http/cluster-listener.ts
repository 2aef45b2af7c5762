/**
 * The cluster's listening socket, held by the primary and handed connection by connection to the
 * workers (decision 020, addendum). Node's own cluster does the same hand-off (round-robin), but
 * it closes the listening socket only when the last worker closes its share, and at that moment
 * it also closes every connection it had accepted and not yet handed over: a proxy that had just
 * written a POST on one gets a reset and answers 502 (nginx never sends a POST twice). Here the
 * primary stops listening first, then hands over every connection it has accepted, then tells
 * each worker that no more will come (after the last one, on the same ordered channel); a worker
 * exits when it has answered them all. Only a connection the kernel completes in the instant
 * between the primary's last accept and its close is still reset, and the primary does nothing
 * else, so that instant stays short.
 */
import cluster, { type Worker } from "node:cluster";
import net from "node:net";
import type { Server } from "node:http";
import type { Logger } from "../logger";

/** How long a stopping process waits for in-flight requests, after draining, before it gives up. */
export const STOP_TIMEOUT_MS = 10_000;

const CONNECTION = "museum:connection";
const TAKEN = "museum:connection-taken";
const READY = "museum:ready";
const NO_MORE = "museum:no-more-connections";
const LISTENING = "museum:listening";

/** A send's callback: without one, a send to a worker that has just died is an 'error' event nothing handles. */
const ignore = () => undefined;

interface Message {
  type?: string;
  id?: number;
  port?: number;
}

/** In the primary: listens on `port`/`host` once a worker is ready, and gives each connection to the ready worker with the fewest not yet taken. */
export function listenForWorkers({ port, host, log }: { port: number; host: string; log: Logger }) {
  const listener = net.createServer({ pauseOnConnect: true });
  /** Ready workers and the connections each has been sent and not yet taken, by id. */
  const pending = new Map<Worker, Map<number, net.Socket>>();
  /** Accepted while no worker was ready (at start, or all of them replaced at once). */
  const waiting: net.Socket[] = [];
  let listening = false;
  /** The port listened on, once bound. */
  let bound: number | undefined;
  let closed = false;
  let turn = 0;
  let nextId = 0;

  const choose = (): Worker | undefined => {
    const ready = [...pending.keys()].filter((w) => w.isConnected());
    if (!ready.length) return undefined;
    const least = Math.min(...ready.map((w) => pending.get(w)!.size));
    const candidates = ready.filter((w) => pending.get(w)!.size === least);
    return candidates[turn++ % candidates.length];
  };

  /** Connections whose hand-off has left this process (the send's callback said so without an error). */
  const sent = new WeakSet<net.Socket>();
  const handOff = (socket: net.Socket) => {
    const worker = choose();
    if (!worker) return void waiting.push(socket);
    const id = nextId++;
    pending.get(worker)!.set(id, socket);
    // Node sends one handle at a time and queues the rest; the callback says when this one left.
    // A failed send (the worker has just died) is dealt with when its exit is seen, below.
    worker.send({ type: CONNECTION, id }, socket, (error: Error | null) => {
      if (!error) sent.add(socket);
    });
  };

  listener.on("connection", handOff);
  listener.on("error", (error) => {
    log.fatal({ err: error, port, host }, "cannot listen");
    process.exit(1);
  });

  cluster.on("message", (worker, message: Message) => {
    if (message?.type === TAKEN && typeof message.id === "number") pending.get(worker)?.delete(message.id);
    else if (message?.type === READY) {
      if (closed) return void worker.send({ type: NO_MORE }, undefined, ignore);
      pending.set(worker, new Map());
      while (waiting.length && pending.size) handOff(waiting.shift()!);
      // Each worker logs that the site listens, with the port, as it did when it listened itself.
      if (bound !== undefined) worker.send({ type: LISTENING, port: bound }, undefined, ignore);
      else if (!listening) {
        listening = true;
        listener.listen(port, host, () => {
          const address = listener.address();
          bound = typeof address === "object" && address ? address.port : port;
          for (const ready of pending.keys()) if (ready.isConnected()) ready.send({ type: LISTENING, port: bound }, undefined, ignore);
        });
      }
    }
  });
  cluster.on("exit", (worker) => {
    const untaken = pending.get(worker);
    pending.delete(worker);
    if (!untaken?.size) return;
    // A worker that died (or was killed) before taking them: a connection still queued in this
    // process (Node sends one handle at a time) goes to another worker, nothing was read from it;
    // the one on its way is lost with the worker.
    let again = 0;
    for (const socket of untaken.values()) {
      if (!sent.has(socket) && !socket.destroyed) {
        again++;
        if (closed && !choose()) socket.destroy();
        else handOff(socket);
      } else socket.destroy();
    }
    log.warn({ workerId: worker.id, untaken: untaken.size, handedAgain: again }, "a worker ended before taking its connections");
  });

  return {
    /**
     * Stops listening (a new connection is refused, which a proxy tries on another instance, POST
     * included), hands over what was accepted, then tells every worker no more will come.
     */
    close(): Promise<void> {
      closed = true;
      return new Promise((resolve) => {
        // In the check phase, right after the poll phase accepted what the kernel had queued.
        setImmediate(() => {
          if (listener.listening) listener.close();
          // Accepted while no worker was ready to take it (all of them dead): none is left to answer it.
          for (const socket of waiting.splice(0)) socket.destroy();
          for (const worker of pending.keys()) if (worker.isConnected()) worker.send({ type: NO_MORE }, undefined, ignore);
          resolve();
        });
      });
    },
  };
}

/**
 * In a worker: serves with `server` the connections the primary hands over, says it is ready, calls
 * `listening` with the port once the primary listens, and `noMore` when the primary has stopped
 * listening and sent the last one. `open()`: the connections open now.
 */
export function serveFromPrimary(server: Server, { listening, noMore }: { listening: (port: number) => void; noMore: () => void }): { ready(): void; open(): number } {
  const open = new Set<net.Socket>();
  process.on("message", (message: Message, socket?: net.Socket) => {
    if (message?.type === CONNECTION && socket) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
      server.emit("connection", socket);
      socket.resume();
      process.send?.({ type: TAKEN, id: message.id });
    } else if (message?.type === LISTENING && typeof message.port === "number") listening(message.port);
    else if (message?.type === NO_MORE) noMore();
  });
  return {
    ready: () => process.send?.({ type: READY }),
    open: () => open.size,
  };
}
