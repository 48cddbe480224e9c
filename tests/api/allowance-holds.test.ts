// Issue 28, finding 4, decision 028: every AI call holds its most (max output tokens plus its prompt's bytes) at the
// claim and settles what it spent at its end, as a card payment holds and captures. Parallel replies can overshoot
// the month's tokens by no more than one hold; a reply that ends early gives back what it held; a hold left by a
// killed process is settled by the orphan sweep. On PGlite and PostgreSQL (TEST_DB=postgres), with two instances on
// PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdFor } from "../../src/server/ai/allowance.js";
import { buildApp } from "../../src/server/app.js";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { planAllowancesApi, tokensHeldMessage, usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, newAccount, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { FAKE_KEY, newChat, pointPlatformAt } from "../helpers/chat-setup.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { jsonPost, readEvents } from "../helpers/sse-reader.js";
import { createScratchPostgres, usingPostgres } from "../helpers/test-database.js";

type Hold = { id: number; tokens: number; prompt_estimate: number; owner: string; message_id: number | null };
type Usage = { tokens: { used: number; limit: number | null; left: number | null }; blocked: string | null };

const UNLIMITED = { monthlyTokens: null, messagesPerDay: null };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: "10" } });
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function setMonthlyTokens(client: CookieClient, monthlyTokens: number | null) {
  const res = await client.call(planAllowancesApi.update, {
    body: { free: { monthlyTokens, messagesPerDay: null }, earlyAccess: UNLIMITED },
  });
  expect(res.status).toBe(200);
}

const holdsOf = async (userId: number) =>
  (
    await t.database.db.execute(
      sql`select id, tokens, prompt_estimate, owner, message_id from ai_holds where user_id = ${userId} order by id`,
    )
  ).rows.map((row) => ({ ...(row as Hold), tokens: Number((row as Hold).tokens), prompt_estimate: Number((row as Hold).prompt_estimate) }));

const usageOf = (client: CookieClient) => client.ok(usageApi.mine, {});
const reply = (client: CookieClient, id: number, content: string) => client.call(chatsApi.reply, { params: { id }, body: { content } });
const shownOf = async (client: CookieClient, id: number) => (await client.ok(chatsApi.messages, { params: { id } })).items;

/** Tokens the stand-in reported for every reply stored in these chats (input + output). */
async function storedTokens(client: CookieClient, chatIds: number[]): Promise<number> {
  let sum = 0;
  for (const id of chatIds) {
    const list = await shownOf(client, id);
    for (const m of list) sum += (m.inputTokens ?? 0) + (m.outputTokens ?? 0);
  }
  return sum;
}

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  for (const end = Date.now() + ms; ; await sleep(50)) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
  }
}

describe("parallel replies against a small token allowance", () => {
  it("five slow replies at once against 30 tokens: one starts, four are told to wait; the month ends at most one hold over", async () => {
    await setMonthlyTokens(admin, 30);
    const { client, user } = await registerAndSignIn(t.app);
    const chats = await Promise.all(Array.from({ length: 5 }, () => newChat(client)));
    // The largest hold seen while they run.
    let hold = 0;
    let watching = true;
    const watcher = (async () => {
      // (A database without holds reads as none, so on code without them the answers below are what fails.)
      for (; watching; await sleep(20)) for (const h of await holdsOf(user.id).catch(() => [])) hold = Math.max(hold, h.tokens);
    })();
    const answers = await Promise.all(chats.map((chat, i) => reply(client, chat.id, `parallel ${i} #slow`)));
    watching = false;
    await watcher;
    const used = (await usageOf(client)).tokens.used;
    console.log(`5 parallel #slow replies, allowance 30: statuses ${answers.map((a) => a.status).join(",")}, used ${used}, hold ${hold}`);

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.map((a) => a.error.message)).toEqual(Array(4).fill(tokensHeldMessage(30)));
    expect(refused.map((a) => a.headers["retry-after"])).toEqual(Array(4).fill("5"));
    // The one reply counts what the provider reported for it: 43 tokens (3 words in, 40 out), 13 over the allowance
    // and within 30 + one hold (1,056: 1,024 tokens out, 16 bytes of prompt, 16 of framing).
    expect(used).toBe(
      await storedTokens(
        client,
        chats.map((c) => c.id),
      ),
    );
    expect(used).toBe(43);
    expect(hold).toBe(1024 + bytes("parallel 0 #slow") + 16);
    expect(hold).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(30 + hold);
    expect(await holdsOf(user.id)).toEqual([]);
    // Nothing held now, and the allowance is spent: the lasting refusal, which the meter shows too.
    expect(await usageOf(client)).toMatchObject({ tokens: { used: 43, left: 0 } });
    expect((await usageOf(client)).blocked).toMatch(/^You have used your 30 tokens for this month/);
  });
});

describe("a reply's end settles its hold", () => {
  it("to the provider's figure when it finishes; after a Stop, to what was sent and received; what it held comes back", async () => {
    await setMonthlyTokens(admin, null);
    const { client, user } = await registerAndSignIn(t.app);
    const chat = await newChat(client);

    // A whole reply: its hold goes, the provider's figure stays.
    expect((await reply(client, chat.id, "short one")).status).toBe(200);
    const before = (await usageOf(client)).tokens.used;
    expect(before).toBe(await storedTokens(client, [chat.id]));
    expect(await holdsOf(user.id)).toEqual([]);

    // A reply that never ends by itself (#hang: one piece, then silence): held while it runs...
    const other = await newChat(client);
    const pending = reply(client, other.id, "a long story #hang");
    const [held] = await until(
      async () => {
        const rows = await holdsOf(user.id);
        const saved = await t.database.db.execute(sql`select content from messages where chat_id = ${other.id} and role = 'assistant'`);
        return (saved.rows[0] as { content: string } | undefined)?.content ? rows : [];
      },
      (rows) => rows.length === 1,
    );
    if (!held) throw new Error("no hold while the reply runs");
    expect(held.tokens).toBeGreaterThan(1024);
    // ...so with exactly what is used plus that hold as the allowance, nothing else may start meanwhile...
    await setMonthlyTokens(admin, before + held.tokens);
    const meanwhile = await reply(client, chat.id, "meanwhile");
    expect(meanwhile.status).toBe(429);
    expect(meanwhile.error.message).toBe(tokensHeldMessage(before + held.tokens));
    // A wait, not a spent allowance: the meter does not block.
    expect((await usageOf(client)).blocked).toBeNull();

    // ...and once stopped, the reply counts what it likely spent (the provider reports nothing for a Stop), and the
    // rest of the hold comes back.
    expect(await client.ok(chatsApi.stop, { params: { id: other.id } })).toEqual({ stopped: true });
    await pending;
    const received = (await shownOf(client, other.id)).find((m) => m.role === "assistant");
    expect(received?.status).toBe("incomplete");
    const spent = (await usageOf(client)).tokens.used - before;
    console.log(`stopped reply: held ${held.tokens}, settled ${spent} (prompt estimate ${held.prompt_estimate})`);
    expect(spent).toBe(held.prompt_estimate + Math.ceil(bytes(received?.content ?? "") / 4));
    expect(spent).toBeGreaterThan(held.prompt_estimate);
    expect(spent).toBeLessThan(held.tokens);
    expect(await holdsOf(user.id)).toEqual([]);
    expect((await reply(client, chat.id, "now it fits")).status).toBe(200);
  });

  it("a Stop before any text settles the prompt's estimate (the provider had the prompt); a provider's error before any text, nothing", async () => {
    await setMonthlyTokens(admin, null);
    const { client, user } = await registerAndSignIn(t.app);
    const chat = await newChat(client);
    // #hang-start: the stand-in reads the request and says nothing, so the Stop comes before the first token.
    const pending = reply(client, chat.id, "a question the provider has read #hang-start");
    const [held] = await until(
      () => holdsOf(user.id),
      (rows) => rows.length === 1,
    );
    if (!held) throw new Error("no hold while the reply waits for its first token");
    expect(held.prompt_estimate).toBeGreaterThan(0);
    expect(await client.ok(chatsApi.stop, { params: { id: chat.id } })).toEqual({ stopped: true });
    await pending;
    const stopped = (await shownOf(client, chat.id)).find((m) => m.role === "assistant");
    expect(stopped).toMatchObject({ content: "", status: "failed" });
    expect(await holdsOf(user.id)).toEqual([]);
    expect((await usageOf(client)).tokens.used).toBe(held.prompt_estimate);

    // The provider refuses before any text (a 500): it bills nothing, and nothing is counted.
    const failed = await reply(client, (await newChat(client)).id, "refused #error=500");
    expect(failed.status).toBe(200);
    expect(failed.response.body).toContain('"type":"error"');
    expect(await holdsOf(user.id)).toEqual([]);
    expect((await usageOf(client)).tokens.used).toBe(held.prompt_estimate);
  });

  it("a one-shot call holds while it runs and settles to the provider's figure", async () => {
    await setMonthlyTokens(admin, null);
    const { client, user } = await registerAndSignIn(t.app);
    let hold = 0;
    const call = client.call(chatsApi.aiChat, { body: { platformSlug: "openai", messages: [{ role: "user", content: "slowly #slow" }] } });
    const [seen] = await until(
      () => holdsOf(user.id),
      (rows) => rows.length > 0,
    );
    hold = seen?.tokens ?? 0;
    expect((await call).status).toBe(200);
    expect(hold).toBeGreaterThan(1024);
    // 40 words out and the message in: the stand-in's figure, never the hold.
    const used = (await usageOf(client)).tokens.used;
    expect(used).toBe(2 + 40);
    expect(used).toBeLessThan(hold);
    expect(await holdsOf(user.id)).toEqual([]);
  });
});

describe("the orphan sweep", () => {
  it("settles the holds nobody will: a gone owner's reply with what its row kept, a gone owner's call with its prompt's estimate; never one under way", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    const chat = await newChat(client);
    const me = t.app.ctx.generations.instanceId;
    await t.database.db.execute(
      sql`insert into messages (chat_id, user_id, role, content, status) values (${chat.id}, ${user.id}, 'user', 'hello', 'complete')`,
    );
    const reply = await t.database.db.execute(
      sql`insert into messages (chat_id, user_id, role, content, status, generation_owner)
        values (${chat.id}, ${user.id}, 'assistant', 'half a reply', 'streaming', 'an-instance-that-is-gone') returning id`,
    );
    const replyId = (reply.rows[0] as { id: number }).id;
    const insertHold = async (owner: string, messageId: number | null, age: string) =>
      (
        (
          await t.database.db.execute(
            sql`insert into ai_holds (user_id, tokens, prompt_estimate, owner, message_id, created_at)
              values (${user.id}, 5000, 40, ${owner}, ${messageId}, now() - ${age}::interval) returning id`,
          )
        ).rows[0] as { id: number }
      ).id;
    await insertHold("an-instance-that-is-gone", replyId, "1 minute");
    const goneCall = await insertHold("an-instance-that-is-gone", null, "1 minute");
    await t.database.db.execute(sql`update ai_holds set running_call = true where id = ${goneCall}`);
    await insertHold(me, null, "1 minute");
    const oursStarting = await insertHold(me, null, "0 seconds");

    await t.app.ctx.generations.recoverOrphans();
    // The reply is closed (kept, incomplete), and then its hold is settled with its text: 40 + 12 bytes / 4. The gone
    // owner's /v1 call and this instance's call nobody holds were under way at the provider when their process died:
    // 40 each, their prompts' estimates (decision 053).
    expect((await shownOf(client, chat.id)).at(-1)).toMatchObject({
      status: "incomplete",
      content: "half a reply",
    });
    expect((await holdsOf(user.id)).map((h) => h.id)).toEqual([oursStarting]);
    expect((await usageOf(client)).tokens.used).toBe(40 + 3 + 40 + 40);
    await t.database.db.execute(sql`select settle_ai_hold(${oursStarting}, 0)`);
  });
});

// The real entry point, killed with -9 in the middle of a reply: the next start's sweep settles its hold.
describe("a reply's hold when its process is killed", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-allowance-kill-"));
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  });

  it("is counted while the reply runs, and settled by the next start's sweep to what was sent and received", {
    timeout: 120_000,
  }, async () => {
    if (usingPostgres()) scratch = await createScratchPostgres();
    const env = { DATA_DIR: dataDir, LOG_LEVEL: "warn", ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
    const owner = cookieFetch();
    const member = cookieFetch();
    const first = await spawnServer(env);
    let second: RunningServer | undefined;
    try {
      expect((await owner.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      await pointSpawnedOpenAiAt(owner, first.url, fake, FAKE_KEY);
      const allowance = { free: { monthlyTokens: 1000, messagesPerDay: null }, earlyAccess: UNLIMITED };
      expect((await owner.call(`${first.url}/api/admin/plan-allowances`, { method: "PUT", body: allowance })).status).toBe(200);
      expect((await member.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      const newChatOn = async (url: string) =>
        ((await (await member.call(`${url}/api/chats`, { method: "POST", body: {} })).json()) as { id: number }).id;
      const chatId = await newChatOn(first.url);
      const stream = await jsonPost(`${first.url}/api/chats/${chatId}/reply`, member.cookie, { content: "story #hang" });
      await readEvents(stream, (event) => event.type === "delta");
      // Held: the reply's most (1,024 tokens out and its prompt) is over the 1,000 left, so nothing else starts.
      const meanwhile = await member.call(`${first.url}/api/chats/${await newChatOn(first.url)}/reply`, {
        method: "POST",
        body: { content: "meanwhile" },
      });
      expect(meanwhile.status).toBe(429);
      expect(((await meanwhile.json()) as { message: string }).message).toBe(tokensHeldMessage(1000));
      // Saved at least every second: wait past one save, so the row keeps the piece that arrived.
      await sleep(1500);
      first.child.kill("SIGKILL");
      await first.exited;

      second = await spawnServer(env);
      const messages = (await (await member.call(`${second.url}/api/chats/${chatId}/messages`)).json()) as {
        role: string;
        status: string;
        content: string;
      }[];
      const reply = messages.find((m) => m.role === "assistant");
      expect(reply?.status).toBe("incomplete");
      expect(reply?.content.length).toBeGreaterThan(0);
      // Settled at the start: counted as what was likely spent (more than nothing, far less than the hold), and the
      // rest given back, so a send goes again.
      const usage = (await (await member.call(`${second.url}/api/usage`)).json()) as Usage;
      console.log(`killed reply: settled ${usage.tokens.used} of 1000`);
      expect(usage.tokens.used).toBeGreaterThan(Math.ceil(bytes(reply?.content ?? "") / 4));
      expect(usage.tokens.used).toBeLessThan(1000);
      const after = await member.call(`${second.url}/api/chats/${await newChatOn(second.url)}/reply`, {
        method: "POST",
        body: { content: "after" },
      });
      expect(after.status).toBe(200);
      await after.text();
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGKILL");
      await Promise.all([first.exited, second?.exited]);
    }
  });
});

// The real entry point, killed with -9 in the middle of a streamed /v1 completion (decisions 051, 053): the client gets
// an error at once, and the next start's sweep settles the call's hold at its prompt's estimate (the provider had the
// prompt) and frees its place among the calls running, so a new call is admitted at once at a limit of 1.
describe("a /v1 call's hold when its process is killed", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-v1-kill-"));
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  });

  it("the client gets an error, never a hang; the next start settles the prompt's estimate and the slot is free", {
    timeout: 120_000,
  }, async () => {
    if (usingPostgres()) scratch = await createScratchPostgres();
    const env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      AI_MAX_CONCURRENT_PER_USER: "1",
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    };
    const owner = cookieFetch();
    const member = cookieFetch();
    const first = await spawnServer(env);
    let second: RunningServer | undefined;
    try {
      expect((await owner.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      await pointSpawnedOpenAiAt(owner, first.url, fake, FAKE_KEY);
      expect((await member.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      const made = await member.call(`${first.url}/api/tokens`, {
        method: "POST",
        body: { name: "script", expiresInDays: 30, scopes: ["chat"] },
      });
      expect(made.status).toBe(201);
      const { token } = (await made.json()) as { token: string };
      const clientOf = (url: string) => new OpenAI({ apiKey: token, baseURL: `${url}/v1`, maxRetries: 0, timeout: 20_000 });

      // #hang: one piece, then the provider says nothing more, so the call is under way when the process dies.
      const content = "a prompt the provider has read #hang";
      const stream = await clientOf(first.url).chat.completions.create({
        model: "openai/fake-model",
        messages: [{ role: "user", content }],
        stream: true,
      });
      const reader = stream[Symbol.asyncIterator]();
      expect((await reader.next()).value?.choices[0]?.delta.content).toMatch(/^Echo: /);
      // It counts as the one call running: another is refused meanwhile.
      const meanwhile = await clientOf(first.url)
        .chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "meanwhile" }] })
        .catch((error: unknown) => error);
      expect(meanwhile).toBeInstanceOf(OpenAI.RateLimitError);

      first.child.kill("SIGKILL");
      const killedAt = Date.now();
      // The client reading the stream is told: an error, within seconds (not the client's 20 s timeout).
      const outcome = await Promise.race([
        (async () => {
          for (let next = await reader.next(); !next.done; next = await reader.next());
          return "ended without an error";
        })().catch((error: unknown) => error),
        sleep(10_000).then(() => "still waiting after 10 s"),
      ]);
      expect(outcome).toBeInstanceOf(Error);
      console.log(`/v1 stream after kill -9: ${(outcome as Error).constructor.name} in ${Date.now() - killedAt} ms`);
      await first.exited;

      second = await spawnServer(env);
      // Settled at the start: the prompt's estimate (the one rule's figure for this one message, `holdFor`).
      const usage = (await (await member.call(`${second.url}/api/usage`)).json()) as Usage;
      const estimate = holdFor({ maxOutputTokens: 0, prompt: [content] }).promptEstimate;
      expect(estimate).toBeGreaterThan(0);
      expect(usage.tokens.used).toBe(estimate);
      // The slot is free at once: at a limit of 1, a new call is admitted and answered.
      const after = await clientOf(second.url).chat.completions.create({
        model: "openai/fake-model",
        messages: [{ role: "user", content: "after" }],
      });
      expect(after.choices[0]?.message.content).toBe("Echo: after");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGKILL");
      await Promise.all([first.exited, second?.exited]);
    }
  });
});

// Two instances on one PostgreSQL: parallel slow replies of one user, half on each, claim under the user's row lock,
// so the holds each sees are the ones committed before it. PGlite is one connection in one process: no such race.
if (usingPostgres())
  describe("two instances", () => {
    if (!process.env.TEST_REDIS_URL) throw new Error("the two-instance test needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");
    let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
    const apps: FastifyInstance[] = [];
    const databases: Database[] = [];

    beforeAll(async () => {
      scratch = await createScratchPostgres();
      const config = testConfig({ REDIS_URL: process.env.TEST_REDIS_URL ?? "", AI_MAX_CONCURRENT_PER_USER: "20" });
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase({ url: scratch.url, poolSize: 10 });
        databases.push(database);
        const app = await buildApp({ config, database, logger: false });
        await app.ready();
        apps.push(app);
      }
    }, 60_000);
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const database of databases) await database.close();
      await scratch?.drop();
    });

    it("ten slow replies at once, five on each, against 30 tokens: one starts, nine wait; 43 tokens used", {
      timeout: 60_000,
    }, async () => {
      const [a, b] = apps as [FastifyInstance, FastifyInstance];
      const owner = (await registerAndSignIn(a)).client;
      await pointPlatformAt(owner, "openai", fake);
      await setMonthlyTokens(owner, 30);
      const user = (await registerAndSignIn(a)).client;
      const cookie = user.sessionCookie ?? "";
      const chats = await Promise.all(Array.from({ length: 10 }, () => newChat(user)));
      const statuses = await Promise.all(
        chats.map((chat, i) =>
          (i % 2 === 0 ? a : b)
            .inject({
              method: "POST",
              url: `/api/chats/${chat.id}/reply`,
              headers: { cookie },
              payload: { content: `parallel ${i} #slow` },
            })
            .then((res) => ({ status: res.statusCode, message: res.statusCode === 429 ? (res.json().message as string) : null })),
        ),
      );
      const usage = (await b.inject({ method: "GET", url: "/api/usage", headers: { cookie } })).json() as Usage;
      console.log(
        `two instances, 10 parallel #slow replies, allowance 30: ${statuses.map((s) => s.status).join(",")}, used ${usage.tokens.used}`,
      );
      expect(statuses.filter((s) => s.status === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s.status === 429).map((s) => s.message)).toEqual(Array(9).fill(tokensHeldMessage(30)));
      expect(usage.tokens.used).toBe(43);
      const [database] = databases;
      if (!database) throw new Error("no database");
      const left = await database.db.execute(sql`select count(*)::int as n from ai_holds`);
      expect(left.rows).toEqual([{ n: 0 }]);
    });
  });
