/**
 * Keeps `process.nextTick` on V8's fast path (decision 044). Imported first by the production
 * entry, before anything else runs.
 *
 * Node builds each tick object with an object literal whose keys are computed (two symbols, then
 * `callback` and `args`). V8 compiles that literal to a fast, inlined store only while each of its
 * property stores has seen one hidden class (map). Tick objects live for a moment, and the maps
 * of that literal are held by nothing else: a full garbage collection frees them, and the next
 * tick object is given new ones. In the site, after a few such collections the stores had seen
 * more than four maps. They became megamorphic, and every tick object (several per request) was
 * built by a call into V8's runtime: 8-9% of the CPU of a stored page on PGlite, by `perf`.
 *
 * Holding the latest tick object keeps its maps alive, so the literal keeps one map per store.
 * The hook runs where the AsyncLocalStorage hooks already run (React's, the database retries' in server/db/retrying.ts): one more
 * call and a comparison per asynchronous resource.
 */
import { createHook } from "node:async_hooks";

// Written, never read: holding it is the point.
let _heldTick: object | null = null;

createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === "TickObject") _heldTick = resource;
  },
}).enable();
