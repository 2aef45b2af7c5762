/**
 * One process at a time on a PGlite directory (decision 043): a second opener is refused before
 * it touches a file and is told who holds it; the lock is free again as soon as the holder closes
 * the database or dies, even by SIGKILL; two paths to one directory are one directory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { DataDirInUseError, lockDataDir } from "../../server/db/data-dir-lock";

const root = mkdtempSync(path.join(tmpdir(), "museum-data-dir-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A separate Node process that takes the lock on `dir` and keeps it until killed. */
function holdInAnotherProcess(dir: string): Promise<ChildProcess> {
  const lockModule = path.resolve("server/db/data-dir-lock.ts");
  const code = `import { lockDataDir } from ${JSON.stringify(lockModule)};
await lockDataDir(${JSON.stringify(dir)});
process.stdout.write("locked\\n");
setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
  });
}

async function refusal(dir: string): Promise<DataDirInUseError> {
  const error = await lockDataDir(dir).then(
    (lock) => lock.release().then(() => null),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataDirInUseError);
  return error as DataDirInUseError;
}

describe("the PGlite directory's lock", () => {
  it("refuses a second opener with the holder's process id, and opens again once the first has closed", async () => {
    const dir = path.join(root, "data", "pglite");
    const first = await openDatabase({ pgliteDir: dir });
    await first.db.execute(sql`create table kept (note text)`);
    await first.db.execute(sql`insert into kept values ('written by the first')`);

    const refused = await openDatabase({ pgliteDir: dir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DataDirInUseError);
    const error = refused as DataDirInUseError;
    expect(error.holder?.pid).toBe(process.pid);
    expect(error.message).toContain(`The embedded database in ${dir} is already open in process ${process.pid} (`);
    expect(error.message).toContain("PGlite can be opened by one process at a time: stop that process first");

    await first.close();
    const second = await openDatabase({ pgliteDir: dir });
    const { rows } = (await second.db.execute(sql`select note from kept`)) as unknown as { rows: { note: string }[] };
    expect(rows).toEqual([{ note: "written by the first" }]);
    await second.close();
  }, 60_000);

  it("is one lock for two paths to the same directory", async () => {
    const dir = path.join(root, "real");
    const lock = await lockDataDir(dir);
    symlinkSync(dir, path.join(root, "alias"));
    try {
      const error = await refusal(path.join(root, "alias"));
      expect(error.holder?.pid).toBe(process.pid);
      await refusal(path.join(root, ".", "real", "..", "real"));
    } finally {
      await lock.release();
    }
    await (await lockDataDir(path.join(root, "alias"))).release();
  });

  it("names a holder in another process, and is free the moment that process is killed", async () => {
    const dir = path.join(root, "killed");
    const holder = await holdInAnotherProcess(dir);
    try {
      const error = await refusal(dir);
      expect(error.holder?.pid).toBe(holder.pid);
      expect(error.message).toContain(`or kill ${holder.pid}), then run this again.`);
    } finally {
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL");
      await exited;
    }
    // No stale lock to wait for or clean up.
    const lock = await lockDataDir(dir);
    await lock.release();
  }, 30_000);

  it("does not keep the process alive", async () => {
    const dir = path.join(root, "unref");
    const lockModule = path.resolve("server/db/data-dir-lock.ts");
    const code = `import { lockDataDir } from ${JSON.stringify(lockModule)}; await lockDataDir(${JSON.stringify(dir)});`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: "inherit" });
    const code_ = await new Promise((resolve) => child.on("exit", resolve));
    expect(code_).toBe(0);
  }, 30_000);
});
