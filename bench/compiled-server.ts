import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCompiledServer, spawnServer } from "../tests/helpers/spawn-server.js";

/**
 * The server compiled and run as `npm start` runs it, in a process of its own, on `databaseUrl` or on PGlite in a new
 * folder (removed at the end): its base URL, and how to stop it. `nodeArgs` go before the server's (a CPU profile...).
 */
export async function startCompiledServer(
  name: string,
  databaseUrl: string | undefined,
  nodeArgs: string[] = [],
): Promise<{ base: string; stop: () => Promise<void> }> {
  const dataDir = databaseUrl ? undefined : mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir ?? "" };
  const server = await spawnServer({ LOG_LEVEL: "warn", ...env }, [...nodeArgs, ...buildCompiledServer(name)]);
  return {
    base: server.url,
    stop: async () => {
      server.child.kill("SIGTERM");
      await server.exited;
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
