import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_DISABLED_MESSAGE } from "../../src/shared/contracts/admin-users.js";
import { newAccount } from "../helpers/build-test-app.js";
import { cookieFetch, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/**
 * User Management across instances (docs/product.md, Accounts): two app processes on one PostgreSQL
 * and one Redis, as behind a load balancer. A change made on one instance reaches the sessions cached by the other.
 */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

type Client = ReturnType<typeof cookieFetch>;
let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let a: RunningServer;
let b: RunningServer;
const admin = cookieFetch();

beforeAll(async () => {
  scratch = await createScratchPostgres();
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, LOG_LEVEL: "warn" };
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  // The first account of the empty database is the admin.
  const first = await admin.call(`${a.url}/api/register`, { method: "POST", body: newAccount() });
  expect((await first.json()).role).toBe("admin");
}, 90_000);
afterAll(async () => {
  a?.child.kill("SIGTERM");
  b?.child.kill("SIGTERM");
  await Promise.all([a?.exited, b?.exited]);
  await scratch?.drop();
});

/** Registers an account on `server` (signed in there) and returns its client, id and password. */
async function member(server: RunningServer) {
  const client = cookieFetch();
  const account = newAccount();
  const res = await client.call(`${server.url}/api/register`, { method: "POST", body: account });
  expect(res.status).toBe(201);
  return { client, account, id: (await res.json()).id as number };
}

/** Polls until the status is `want` (or 2 s pass, far below the 5 s a cached session is trusted). */
async function eventually(read: () => Promise<number>, want: number) {
  const started = Date.now();
  let status = await read();
  while (status !== want && Date.now() - started < 2_000) {
    await new Promise((r) => setTimeout(r, 25));
    status = await read();
  }
  return status;
}

const status = async (client: Client, url: string) => (await client.call(url)).status;

describe("user management across two instances", () => {
  it("a user signed in on B is refused at once after an admin disables them on A, and signs in again once enabled", async () => {
    const user = await member(b);
    // B now holds the session in its short cache.
    expect(await status(user.client, `${b.url}/api/user`)).toBe(200);
    expect(await status(user.client, `${b.url}/api/user`)).toBe(200);

    const disabled = await admin.call(`${a.url}/api/admin/users/${user.id}`, { method: "PATCH", body: { status: "inactive" } });
    expect(disabled.status).toBe(200);
    expect(await eventually(() => status(user.client, `${b.url}/api/user`), 401)).toBe(401);
    expect(await status(user.client, `${a.url}/api/user`)).toBe(401);

    for (const server of [a, b]) {
      const login = await cookieFetch().call(`${server.url}/api/login`, {
        method: "POST",
        body: { username: user.account.username, password: user.account.password },
      });
      expect(login.status).toBe(403);
      expect((await login.json()).message).toBe(ACCOUNT_DISABLED_MESSAGE);
    }

    expect((await admin.call(`${b.url}/api/admin/users/${user.id}`, { method: "PATCH", body: { status: "active" } })).status).toBe(200);
    const again = cookieFetch();
    const login = await again.call(`${a.url}/api/login`, {
      method: "POST",
      body: { username: user.account.username, password: user.account.password },
    });
    expect(login.status).toBe(200);
    expect(await status(again, `${b.url}/api/user`)).toBe(200);
  });

  it("a demotion on A takes the admin area away on B at once; a deletion there ends the session", async () => {
    const user = await member(a);
    expect((await admin.call(`${a.url}/api/admin/users/${user.id}`, { method: "PATCH", body: { role: "admin" } })).status).toBe(200);
    expect(await status(user.client, `${b.url}/api/admin/users`)).toBe(200);
    expect(await status(user.client, `${b.url}/api/admin/users`)).toBe(200);
    expect((await admin.call(`${a.url}/api/admin/users/${user.id}`, { method: "PATCH", body: { role: "user" } })).status).toBe(200);
    expect(await eventually(() => status(user.client, `${b.url}/api/admin/users`), 403)).toBe(403);

    expect(await status(user.client, `${b.url}/api/user`)).toBe(200);
    expect((await admin.call(`${a.url}/api/admin/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await eventually(() => status(user.client, `${b.url}/api/user`), 401)).toBe(401);
  });
});
