// The compiled server (issue 15): `npm run build` compiles src/server to one JavaScript module that `npm start`
// runs with plain Node and the serve script's flags. Built here into a scratch folder inside node_modules (so
// its packages resolve), started on a new embedded database, and used: it migrates, answers, registers the
// first account and serves the prerender-less app shell's API; it loads no provider SDK until one is used.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount } from "../helpers/build-test-app.js";
import { type RunningServer, serveScriptArgs, spawnServer } from "../helpers/spawn-server.js";

const root = path.resolve(import.meta.dirname, "../..");
const outDir = mkdtempSync(path.join(root, "node_modules/.cache/compiled-server-test-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "compiled-server-data-"));
let server: RunningServer;

beforeAll(async () => {
  const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-server.ts", "--outDir", outDir], {
    cwd: root,
    encoding: "utf8",
  });
  expect(built.status, built.stderr).toBe(0);
  server = await spawnServer(
    { DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, "no-web-build") },
    serveScriptArgs(path.join(outDir, "main.js")),
  );
}, 90_000);
afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the compiled server", () => {
  it("is one module with its migrations beside it, and no TypeScript", () => {
    expect(existsSync(path.join(outDir, "main.js"))).toBe(true);
    expect(existsSync(path.join(outDir, "migrations/meta/_journal.json"))).toBe(true);
    const code = readFileSync(path.join(outDir, "main.js"), "utf8");
    // The provider SDKs, Stripe and nodemailer are imported where first used, never at the top.
    for (const lazy of ["@ai-sdk/openai", "@ai-sdk/anthropic", "stripe", "nodemailer", '"ai"']) {
      expect(code, lazy).not.toMatch(new RegExp(`^import [^;]*from ["']${lazy.replaceAll('"', "")}["']`, "m"));
    }
  });

  it("migrates a new embedded database, answers, registers the first account, and ends on SIGTERM", async () => {
    const settings = await fetch(`${server.url}/api/payment-settings`);
    expect(settings.status).toBe(200);
    const register = await fetch(`${server.url}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify(newAccount()),
    });
    expect(register.status, await register.clone().text()).toBe(201);
    expect(((await register.json()) as { role: string }).role).toBe("admin");
    // A chat import is read by its own thread, compiled beside main.js (import-worker.js).
    expect(existsSync(path.join(outDir, "import-worker.js"))).toBe(true);
    const cookie = (register.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const conversation = {
      title: "Compiled import",
      create_time: 1719000000,
      mapping: { q: { id: "q", message: { author: { role: "user" }, content: { content_type: "text", parts: ["hello"] } } } },
    };
    const imported = await fetch(`${server.url}/api/chats/import`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify([conversation]),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await imported.json()).toEqual({ imported: 1, skipped: [] });
    expect(server.output()).toContain("Ready on");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
