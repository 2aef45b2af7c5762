// Service time: the CPU a request cost the site's processes and the PostgreSQL backends serving
// it (Linux /proc/<pid>/task/*/schedstat, nanoseconds), which other load on a shared machine does
// not inflate as it does the latency. Used by the search and console benchmarks.
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";

/** Nanoseconds of CPU used so far by every thread of `pids` (0 for a process that is gone). */
export function cpuNs(pids) {
  let total = 0;
  for (const pid of pids) {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // the thread ended
      }
    }
  }
  return total;
}

/** The site's process and its descendants (cluster workers), and the PostgreSQL backends of its database. */
export async function servingPids(site, databaseUrl) {
  const pids = [site.pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, "utf8").trim();
        if (children) pids.push(...children.split(" ").map(Number));
      }
    } catch {
      // gone
    }
  }
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
    await client.end();
    pids.push(...rows.map((r) => r.pid));
  }
  return pids;
}
