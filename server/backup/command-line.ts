/**
 * What `npm run backup` and `npm run restore` share: a refusal in words (exit 1, no stack), the
 * configuration read as the site reads it, and the migrations beside the compiled command.
 */
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config";

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The site's configuration (a wrong variable is said and ends the command); never seeds. */
export function commandConfig(): Config {
  try {
    return loadConfig({ ...process.env, SEED_DEMO: "false" });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** build/host/<command>.js -> the repository's drizzle/. */
export const commandMigrations = (): string => fileURLToPath(new URL("../../drizzle", import.meta.url));

export const say = (line: string): void => void process.stdout.write(`${line}\n`);
