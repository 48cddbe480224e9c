/**
 * npm run create-admin -- --username alice --password 'S3cret!pass' [--email a@b.c] [--name "Alice A"]
 * Creates an admin, or promotes an existing account (its password is reset only when --password is given).
 * Uses the same database as the app: DATABASE_URL, or the embedded PGlite under DATA_DIR (./data).
 * Stop a running app on PGlite first: the embedded database has one writer.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/server/config.js";
import { openDatabase } from "../src/server/db/client.js";
import { describeError } from "../src/server/lib/log-redaction.js";
import { createOrPromoteAdmin } from "../src/server/modules/auth/create-admin.js";
import { emailField, nameField, strongPasswordField, usernameField } from "../src/shared/contracts/fields.js";

const { values } = parseArgs({
  options: {
    username: { type: "string" },
    password: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
  },
});

function check<T>(
  label: string,
  schema: { safeParse(v: unknown): { success: boolean; data?: T; error?: { issues: { message: string }[] } } },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    console.error(`${label}: ${result.error?.issues[0]?.message}`);
    process.exit(2);
  }
  return result.data as T;
}

const username = check<string>("username", usernameField, values.username ?? process.env.ADMIN_USERNAME);
const rawPassword = values.password ?? process.env.ADMIN_PASSWORD;
const password = rawPassword === undefined ? undefined : check<string>("password", strongPasswordField, rawPassword);
const email = values.email === undefined ? undefined : check<string>("email", emailField, values.email);
const name = values.name === undefined ? undefined : check<string>("name", nameField, values.name);

const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  pgliteDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR, "pglite"),
});
try {
  const result = await createOrPromoteAdmin({ db: database.db, input: { username, password, email, name } });
  console.log(result.created ? `Created admin "${username}" (id ${result.id}).` : `"${username}" (id ${result.id}) is now an admin.`);
} catch (error) {
  // A failed insert's message names its parameters (the new hash among them): the message without them.
  console.error(describeError(error));
  process.exitCode = 1;
} finally {
  await database.close();
}
