import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * PGlite has a single writer: two processes on one folder would corrupt it.
 * A pid file refuses a second process while the first is alive; a lock left
 * by a killed process (kill -9) is taken over.
 */
export function lockPgliteDir(dir: string): () => void {
  const file = path.join(dir, "lumora.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(file, "utf8"));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${owner}. Stop that process first (PGlite allows one at a time).`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding `dir`'s lock, or null (no lock, or one left by a process that is gone). */
export function lockOwner(dir: string): number | null {
  let owner: number;
  try {
    owner = Number(readFileSync(path.join(dir, "lumora.pid"), "utf8"));
  } catch {
    return null;
  }
  return owner > 0 && isAlive(owner) ? owner : null;
}
