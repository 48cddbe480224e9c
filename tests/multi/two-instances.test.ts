import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount } from "../helpers/build-test-app.js";
import { cookieFetch, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/**
 * Two app processes on one PostgreSQL and one Redis, as behind a load balancer.
 * Part of the PostgreSQL pass (npm run test:pg), which needs TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  scratch = await createScratchPostgres();
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, LOG_LEVEL: "warn" };
  // Started together on purpose: both migrate the empty database at once, under the advisory lock.
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  // Throttle counters are keyed by account id and live in the shared Redis for 15 minutes: ids that no
  // earlier run used keep a previous run's failures from counting against this one's accounts.
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await client.query("select setval('users_id_seq', $1)", [1_000_000 + Math.floor(Math.random() * 1_000_000_000)]);
  await client.end();
}, 90_000);
afterAll(async () => {
  a?.child.kill("SIGTERM");
  b?.child.kill("SIGTERM");
  await Promise.all([a?.exited, b?.exited]);
  await scratch?.drop();
});

describe("two instances", () => {
  it("share sessions: made on one, valid on the other; a logout on one is seen by the other at once", async () => {
    const client = cookieFetch();
    const account = newAccount();
    expect((await client.call(`${a.url}/api/register`, { method: "POST", body: account })).status).toBe(201);
    const onB = await client.call(`${b.url}/api/user`);
    expect(onB.status).toBe(200);
    expect((await onB.json()).username).toBe(account.username);

    const cookie = client.cookie;
    expect((await client.call(`${a.url}/api/logout`, { method: "POST" })).status).toBe(200);
    const stale = cookieFetch();
    stale.cookie = cookie;
    // B had the session in its short cache; the invalidation travels through Redis.
    let status = 0;
    for (let i = 0; i < 20; i++) {
      status = (await stale.call(`${b.url}/api/user`)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });

  it("count failed logins across both for the throttle", async () => {
    const account = newAccount();
    expect((await cookieFetch().call(`${a.url}/api/register`, { method: "POST", body: account })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push(
        (
          await cookieFetch().call(`${server.url}/api/login`, {
            method: "POST",
            body: { username: account.username, password: `Wrong!${i}aA` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const onA = await cookieFetch().call(`${a.url}/api/login`, {
      method: "POST",
      body: { username: account.username, password: account.password },
    });
    const onB = await cookieFetch().call(`${b.url}/api/login`, {
      method: "POST",
      body: { username: account.username, password: account.password },
    });
    expect(onA.status).toBe(429);
    expect(onB.status).toBe(429);
    expect(Number(onB.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
