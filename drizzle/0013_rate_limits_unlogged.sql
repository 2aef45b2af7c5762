-- Rate-limit counters (server/security/rate-limit-store.ts) skip the write-ahead log: every
-- counted request (each search, login, form) wrote one, and its flush was most of the counter's
-- cost on PostgreSQL (an upsert: median 0.88 ms logged, 0.15 ms unlogged, measured 2026-11-25).
-- After a database crash the table comes back empty, and a standby does not have it: the limits
-- start counting again, which a limiter may; nothing else lives in it.
ALTER TABLE "rate_limits" SET UNLOGGED;
