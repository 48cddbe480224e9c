import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newAccount } from "../helpers/build-test-app.js";
import { cookieFetch, spawnServer } from "../helpers/spawn-server.js";

// Runs the real entry point on the embedded PGlite in a folder of its own.
const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-lifecycle-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the app process on PGlite", () => {
  it("keeps its data through kill -9 and finishes in-flight requests on SIGTERM", { timeout: 300_000 }, async () => {
    const account = newAccount();
    const first = await spawnServer({ DATA_DIR: dataDir });
    const client = cookieFetch();
    expect((await client.call(`${first.url}/api/register`, { method: "POST", body: account })).status).toBe(201);
    expect((await client.call(`${first.url}/api/user`, { method: "PATCH", body: { name: "Before Crash" } })).status).toBe(200);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull();

    const second = await spawnServer({ DATA_DIR: dataDir });
    const me = await client.call(`${second.url}/api/user`);
    expect(me.status).toBe(200);
    expect((await me.json()).name).toBe("Before Crash");

    // SIGTERM while a login (argon2, tens of ms) is in flight: the answer still arrives, then a clean exit.
    const login = cookieFetch().call(`${second.url}/api/login`, {
      method: "POST",
      body: { username: account.username, password: account.password },
    });
    await new Promise((r) => setTimeout(r, 5));
    second.child.kill("SIGTERM");
    expect((await login).status).toBe(200);
    const code = await second.exited;
    if (code !== 0) console.log(second.output().slice(-3000));
    expect(code).toBe(0);
    expect(second.output()).toContain("finishing in-flight requests");

    const third = await spawnServer({ DATA_DIR: dataDir });
    expect((await client.call(`${third.url}/api/user`)).status).toBe(200);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  });
});

describe("the embedded database through a kill -9 in the middle of writes", () => {
  it("keeps every write it acknowledged, and opens readable and writable on the next start", { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lumora-crash-"));
    try {
      const first = await spawnServer({ DATA_DIR: dir });
      const client = cookieFetch();
      expect((await client.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      // Four writers, each a chat (a transaction) then a message in it, until the process is killed under them.
      const acknowledged: { chatId: number; content: string }[] = [];
      let killed = false;
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const content = `writer ${w} note ${i}`;
          try {
            const chat = await client.call(`${first.url}/api/chats`, { method: "POST", body: { title: content } });
            if (chat.status !== 201) return;
            const { id } = (await chat.json()) as { id: number };
            const message = await client.call(`${first.url}/api/chats/${id}/messages`, { method: "POST", body: { content } });
            if (message.status === 201) acknowledged.push({ chatId: id, content });
          } catch {
            return; // the connection died with the process
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
      killed = true;
      first.child.kill("SIGKILL");
      expect(await first.exited).toBeNull();
      await Promise.all(writers);

      const second = await spawnServer({ DATA_DIR: dir });
      for (const { chatId, content } of acknowledged) {
        const shown = await client.call(`${second.url}/api/chats/${chatId}/messages`);
        expect(shown.status).toBe(200);
        expect(((await shown.json()) as { content: string }[]).map((m) => m.content)).toContain(content);
      }
      const listed = await client.call(`${second.url}/api/chats?limit=200`);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as unknown[]).length).toBeGreaterThanOrEqual(acknowledged.length);
      const after = await client.call(`${second.url}/api/chats`, { method: "POST", body: { title: "after the crash" } });
      expect(after.status).toBe(201);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the embedded database's single writer", () => {
  it("refuses a second process on the same folder while the first runs", { timeout: 150_000 }, async () => {
    const { openDatabase } = await import("../../src/server/db/client.js");
    const dir = mkdtempSync(path.join(tmpdir(), "lumora-lock-"));
    const server = await spawnServer({ DATA_DIR: dir });
    await expect(openDatabase({ pgliteDir: path.join(dir, "pglite") })).rejects.toThrow(/in use by process/);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const reopened = await openDatabase({ pgliteDir: path.join(dir, "pglite") });
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("a new embedded database folder", () => {
  it("is created and migrated (by a process of its own), then opened", { timeout: 150_000 }, async () => {
    const { openDatabase } = await import("../../src/server/db/client.js");
    const dir = mkdtempSync(path.join(tmpdir(), "lumora-new-"));
    const pgliteDir = path.join(dir, "pglite");
    try {
      const database = await openDatabase({ pgliteDir });
      const journal = JSON.parse(readFileSync("src/server/db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] };
      const applied = await database.db.execute<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0]?.n).toBe(journal.entries.length);
      expect(existsSync(path.join(pgliteDir, "PG_VERSION"))).toBe(true);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("that cannot be created says where and why, and the next start creates it", { timeout: 150_000 }, async () => {
    const { openDatabase } = await import("../../src/server/db/client.js");
    const dir = mkdtempSync(path.join(tmpdir(), "lumora-new-"));
    const pgliteDir = path.join(dir, "pglite");
    try {
      // A page cache below PostgreSQL's minimum: its start fails inside the creating process.
      await expect(openDatabase({ pgliteDir, pgliteSharedBuffers: "1kB" })).rejects.toThrow(
        `Creating the embedded database in ${pgliteDir} failed (exit code 1): PGlite failed to initialize properly`,
      );
      const database = await openDatabase({ pgliteDir });
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
