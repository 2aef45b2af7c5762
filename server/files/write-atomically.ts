/**
 * Writes a file atomically: a uniquely named sibling first, then a rename over the target, so a
 * reader never sees half a file. `content` is the bytes, or a function that writes the sibling
 * (a copy of another file).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";

export async function writeAtomically(target: string, content: string | Buffer | ((temp: string) => Promise<void>)): Promise<void> {
  const temp = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    if (typeof content === "function") await content(temp);
    else await fs.writeFile(temp, content);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
