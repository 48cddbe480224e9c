import { existsSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "../client.js";
import { dumpLines } from "./dump.js";
import { BackupReader } from "./format.js";
import { type LoadResult, restoreIntoPostgres } from "./restore.js";
import { pgliteSession } from "./sessions.js";

/**
 * Moves the embedded database in `pgliteDir` to the PostgreSQL database at `url`: the embedded one is brought up to
 * this build's migrations (as a start of the server would), then read in one transaction and written into the target
 * as it is read (no file between them), the target migrated by the app's own migrations and refused when in use.
 * The embedded database must be stopped: what a running server wrote after the copy began would be lost.
 */
export async function migrateToPostgres(pgliteDir: string, url: string): Promise<LoadResult> {
  const folder = path.resolve(pgliteDir);
  if (!existsSync(path.join(folder, "PG_VERSION"))) throw new Error(`There is no embedded database in ${folder} to move.`);
  // Opening it the way the server does applies any migration it lacks, and refuses a folder a live process holds.
  await (await openDatabase({ pgliteDir: folder })).close();
  const source = await pgliteSession(folder);
  try {
    const reader = await BackupReader.from(dumpLines(source));
    try {
      return await restoreIntoPostgres(reader, url);
    } finally {
      await reader.close();
    }
  } finally {
    await source.close();
  }
}
