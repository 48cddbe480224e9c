/**
 * The server step of `npm run build` (issue 15): compiles src/server/main.ts and everything it imports of ours
 * into one JavaScript module, dist/server/main.js (and db/pglite-create.ts, the short process that creates a new
 * embedded database, into dist/server/pglite-create.js; the embedded database's own thread into pglite-worker.js; the chat import's worker thread into import-worker.js, the document reader's into extract-worker.js), leaving the packages in node_modules to Node (the heavy
 * ones, Stripe and the AI providers' SDKs, are imported when first used). `npm start` runs the result with plain Node: no TypeScript compiler and no
 * esbuild service in the running process. `tsx` stays for development (`npm run dev:server`) and the tests.
 *
 *   tsx scripts/build-server.ts [--outDir dist/server]
 *
 * The SQL migrations are copied next to the code (db/client.ts reads them from its own folder), and the web
 * build is found at dist/web as before (config.ts resolves it from its own folder, two levels up).
 */
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values: args } = parseArgs({ options: { outDir: { type: "string", default: "dist/server" } } });
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.resolve(root, args.outDir);

const started = Date.now();
rmSync(outDir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // pglite-create: the process that creates a new embedded database (db/client.ts); pglite-worker: the thread the
  // embedded database runs on (db/pglite-thread.ts); import-worker: the thread
  // that reads a chat import (modules/chat-transfer/import-reader.ts); extract-worker: the thread that reads an
  // uploaded document's text (modules/knowledge/reading/extract-text.ts).
  entryPoints: {
    main: "src/server/main.ts",
    "pglite-create": "src/server/db/pglite-create.ts",
    "pglite-worker": "src/server/db/pglite-worker.ts",
    "import-worker": "src/server/modules/chat-transfer/import-worker.ts",
    "extract-worker": "src/server/modules/knowledge/reading/extract-worker.ts",
  },
  outdir: outDir,
  bundle: true,
  // One file: config.ts and db/client.ts find dist/web and the migrations from their own folder.
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  metafile: true,
});
cpSync(path.join(root, "src/server/db/migrations"), path.join(outDir, "migrations"), { recursive: true });
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `server compiled into ${path.relative(root, outDir)} (${(bytes / 1024).toFixed(0)} KiB with source maps) in ${Date.now() - started} ms`,
);
