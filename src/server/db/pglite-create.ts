/**
 * Creates a new embedded database folder, as its own short-lived process (db/client.ts runs it): initdb and the
 * migrations leave PGlite's WebAssembly heap, and the server's native heap, far larger than the server's own
 * work needs, and neither is handed back to the system by closing the database (issue 15: a server that had
 * created its folder idled 60 to 80 MB above one that opened it, bench/memory). Done here, that memory ends
 * with this process.
 *
 *   node pglite-create.js <folder> <shared_buffers> [<migrations folder>]
 */
import { migrationsFolder } from "./client.js";
import { createPglite } from "./pglite-engine.js";

const [dir, sharedBuffers, migrations = migrationsFolder] = process.argv.slice(2);
if (!dir || !sharedBuffers) {
  console.error("usage: pglite-create <folder> <shared_buffers>");
  process.exit(2);
}
// A server killed while this runs (kill -9) must not leave it writing into a folder the next start creates again.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 200).unref();
async function create(folder: string, buffers: string, migrationsPath: string): Promise<void> {
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  const client = await createPglite(folder, buffers);
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsPath });
  } finally {
    await client.close();
  }
}

// Only the reason, for the server's error: an uncaught error would print a line of PGlite's minified code first.
await create(dir, sharedBuffers, migrations).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
