/**
 * `npm run admin:create -- --email ADDRESS [--first-name NAME] [--last-name NAME] [--remove-factors]`:
 * makes the first admin (or makes an existing account admin) and prints a one-time link, valid 72
 * hours, to choose the password. There is no default password.
 *
 * `--remove-factors` is the way back for a staff member who lost every second factor (decision
 * 055): it needs the machine, removes the account's authenticator app, recovery codes, passkeys
 * and known browsers, ends its sessions, records it in the audit log and mails the person. The
 * browser that opens the printed link is known to the account afterwards (no emailed code).
 *
 * On PostgreSQL (DATABASE_URL) it works while the site runs. On the embedded PGlite, the
 * database in DATA_DIR is one process's: while the site runs on the same DATA_DIR the command
 * refuses and says to stop the site first (it would otherwise open the same files twice).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { createStaffService } from "./admin/staff-service";
import { loadConfig } from "./config";
import { openDatabase, pgliteDirectory } from "./db/client";
import { DataDirInUseError } from "./db/data-dir-lock";
import { runMigrations } from "./db/migrate";
import { eq } from "drizzle-orm";
import { sessions } from "./db/schema";
import { createStaffSignIn } from "./accounts/staff-sign-in.server";
import { resolveSessionSecret } from "./generated-secrets";

const USAGE = "Usage: npm run admin:create -- --email someone@museum.org [--first-name Ada] [--last-name Lovelace] [--remove-factors]";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      email: { type: "string" },
      "first-name": { type: "string", default: "Museum" },
      "last-name": { type: "string", default: "Admin" },
      /** Also write the link to this file (readable by its owner only), for scripted set-ups such as the browser tests. */
      "link-file": { type: "string" },
      /** Removes every second factor and known browser of the account and ends its sessions (a lost phone and passkeys). */
      "remove-factors": { type: "boolean", default: false },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const email = z.string().trim().email().max(254).safeParse(args.email ?? "");
if (!email.success) fail(`Please give the admin's email address.\n${USAGE}`);
const name = z.string().trim().min(1).max(100);
const firstName = name.safeParse(args["first-name"]);
const lastName = name.safeParse(args["last-name"]);
if (!firstName.success || !lastName.success) fail(`Names must be 1 to 100 characters.\n${USAGE}`);

const config = loadConfig({ ...process.env, SEED_DEMO: "false" });
const pgliteDir = pgliteDirectory(config.DATA_DIR);
// On PGlite, while the site runs on the same DATA_DIR, this refuses and says to stop it (decision 043).
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir, retrySeconds: config.DB_RETRY_SECONDS }).catch((error: unknown) =>
  error instanceof DataDirInUseError ? fail(error.message) : Promise.reject(error),
);
try {
  await runMigrations(database, fileURLToPath(new URL("../../drizzle", import.meta.url)));
  const staff = createStaffService({ db: database.db, publicUrl: config.PUBLIC_URL });
  const { link, created, userId } = await staff.createAdmin({ email: email.data, firstName: firstName.data, lastName: lastName.data });
  if (args["remove-factors"]) {
    const signIn = createStaffSignIn({ db: database.db, secret: resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR), secretBox: null, now: () => new Date() });
    await signIn.removeEveryFactor(userId, { userId: null, email: "npm run admin:create -- --remove-factors" });
    await database.db.delete(sessions).where(eq(sessions.userId, userId));
    process.stdout.write(`Every authenticator app, recovery code, passkey and known browser of ${email.data} is removed, and its sessions are ended.\n`);
  }
  if (args["link-file"]) writeFileSync(args["link-file"], `${link}\n`, { mode: 0o600 });
  process.stdout.write(
    [
      created ? `Admin account created for ${email.data}.` : `${email.data} already had an account: it is now an admin.`,
      "Open this one-time link (valid 72 hours) to choose the password, then sign in and go to /admin:",
      "",
      `  ${link}`,
      "",
      // The link is on the site's own address, as the site computes it: say where that came from.
      process.env.PUBLIC_URL?.trim()
        ? `(The link is on PUBLIC_URL, ${config.PUBLIC_URL}.)`
        : `(PUBLIC_URL is not set, so the link is on http://localhost:${config.PORT}, from PORT. If the site is reached at another address, run this command again with PUBLIC_URL=... (or PORT=...) set as for the site.)`,
      "",
    ].join("\n"),
  );
} finally {
  await database.close();
}
