/**
 * The purge hook (decision 054): after this process commits a collection change, the site asks
 * a cache in front (a CDN's purge API behind a small adapter, Varnish with xkey, nginx's
 * cache_purge module) to drop the answers that carry the changed keys (`Surrogate-Key` /
 * `Cache-Tag`). A POST of `{"keys":[...]}` to PURGE_URL, with `Authorization: Bearer PURGE_TOKEN`
 * when set. Another instance may answer the cache's next fetch before it has heard of the change
 * (milliseconds), so the same purge is sent once more a second later. A purge that fails is
 * logged and not retried further: the answers' own lifetime (SHARED_CACHE_SECONDS) still ends them.
 */
import type { Logger } from "../logger";

export interface CachePurgeOptions {
  url: string;
  token?: string;
  logger: Pick<Logger, "warn" | "info">;
  /** Delay of the second purge (ms). */
  againAfterMs?: number;
  /** How long one purge may take before it is abandoned (ms). */
  timeoutMs?: number;
}

export function createCachePurge({ url, token, logger, againAfterMs = 1_000, timeoutMs = 5_000 }: CachePurgeOptions) {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<Promise<void>>();

  async function send(keys: readonly string[]): Promise<void> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ keys }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) logger.warn({ status: response.status, keys }, "the cache purge was refused");
    } catch (error) {
      logger.warn({ err: error, keys }, "the cache purge could not be sent");
    }
  }

  function track(keys: readonly string[]): Promise<void> {
    const sent = send(keys).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    return sent;
  }

  return {
    /** Purges `keys` now and once more after `againAfterMs`; resolves when the first purge has been answered. */
    purge(keys: readonly string[]): Promise<void> {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void track(keys);
      }, againAfterMs);
      timer.unref();
      timers.add(timer);
      return track(keys);
    },
    /** Sends the purges still waiting, and waits for those under way (shutting down). */
    async stop(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(inFlight);
    },
  };
}

