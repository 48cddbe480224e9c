// Usage allowances per plan (issue 16, decision 016): the admin sets tokens per month and messages per day per
// plan; sends, edits, regenerates, one-shot calls and course generation are refused with 429 once either is spent
// (one rule for every AI path, issue 28, decision 028); admins are unlimited; the numbers show in GET /api/usage and
// on the admin users list. Two instances hold the limit exactly.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.js";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { activityApi } from "../../src/shared/contracts/activity.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { courseAiApi, coursesApi, outlineDraftSchema } from "../../src/shared/contracts/courses.js";
import { messagesSpentMessage, planAllowancesApi, tokensSpentMessage, usageApi } from "../../src/shared/contracts/usage.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { createScratchPostgres, usingPostgres } from "../helpers/test-database.js";

type Allowance = { monthlyTokens: number | null; messagesPerDay: number | null };
const UNLIMITED: Allowance = { monthlyTokens: null, messagesPerDay: null };
/** The fake's outline, read as the contract types an outline. */
const OUTLINE = outlineDraftSchema.parse(FAKE_OUTLINE);

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let adminId: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: "10" } });
  const first = await registerAndSignIn(t.app);
  admin = first.client;
  adminId = first.user.id;
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const put = (client: CookieClient, body: { free: Allowance; earlyAccess: Allowance }) => client.call(planAllowancesApi.update, { body });
/** A body the contract refuses, sent as it is. */
const putRaw = (client: CookieClient, rawBody: unknown) =>
  client.call(planAllowancesApi.update, { body: { free: UNLIMITED, earlyAccess: UNLIMITED } }, { rawBody });

async function setAllowances(free: Allowance, earlyAccess: Allowance = UNLIMITED) {
  const res = await put(admin, { free, earlyAccess });
  expect(res.status).toBe(200);
  return res.data;
}

async function member(plan: "free" | "earlyAccess" = "free") {
  const signed = await registerAndSignIn(t.app);
  if (plan === "earlyAccess") {
    const changed = await admin.call(adminUsersApi.update, { params: { id: signed.user.id }, body: { planType: "earlyAccess" } });
    expect(changed.status).toBe(200);
  }
  return { client: signed.client, id: signed.user.id, username: signed.user.username };
}

const usageOf = async (client: CookieClient) => {
  const res = await client.call(usageApi.mine, {});
  expect(res.status).toBe(200);
  return res.data;
};

const messagesOf = async (client: CookieClient, chatId: number) => (await client.ok(chatsApi.messages, { params: { id: chatId } })).items;

/** Tokens the stand-in reported for every reply stored in these chats (input + output). */
async function storedTokens(client: CookieClient, chatIds: number[]): Promise<number> {
  let sum = 0;
  for (const id of chatIds) {
    for (const m of await messagesOf(client, id)) sum += (m.inputTokens ?? 0) + (m.outputTokens ?? 0);
  }
  return sum;
}

async function send(client: CookieClient, chatId: number, content = "hello there") {
  return client.call(chatsApi.reply, { params: { id: chatId }, body: { content } });
}
const regenerate = (client: CookieClient, chatId: number) => client.call(chatsApi.regenerate, { params: { id: chatId }, body: {} });
const oneShot = (client: CookieClient, content = "hi") =>
  client.call(chatsApi.aiChat, { body: { platformSlug: "openai", messages: [{ role: "user", content }] } });

const nextMonthText = () => {
  const now = new Date();
  return tokensSpentMessage(1, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))).replace(/^.*resets on /, "");
};

describe("plan allowances (admin)", () => {
  it("start unlimited; an admin replaces them, the change is logged; members get 403, visitors 401, bad values 400", async () => {
    expect(await admin.ok(planAllowancesApi.get, {})).toEqual({ free: UNLIMITED, earlyAccess: UNLIMITED });

    const saved = await setAllowances({ monthlyTokens: 50_000, messagesPerDay: 100 }, { monthlyTokens: null, messagesPerDay: 500 });
    expect(saved).toEqual({
      free: { monthlyTokens: 50_000, messagesPerDay: 100 },
      earlyAccess: { monthlyTokens: null, messagesPerDay: 500 },
    });
    expect(await admin.ok(planAllowancesApi.get, {})).toEqual(saved);
    const logged = await admin.call(activityApi.list, { query: { action: "plan_allowances_change" } });
    expect(logged.status).toBe(200);
    expect(logged.data.items[0]).toMatchObject({ action: "plan_allowances_change", user: { id: adminId } });

    const someone = await member();
    expect((await someone.client.call(planAllowancesApi.get, {})).status).toBe(403);
    expect((await put(someone.client, { free: UNLIMITED, earlyAccess: UNLIMITED })).status).toBe(403);
    const visitor = new CookieClient(t.app);
    expect((await visitor.call(planAllowancesApi.get, {})).status).toBe(401);
    expect((await put(visitor, { free: UNLIMITED, earlyAccess: UNLIMITED })).status).toBe(401);

    for (const [value, message] of [
      [0, "Allowance must be at least 1, or empty for unlimited"],
      [-5, "Allowance must be at least 1, or empty for unlimited"],
      [1.5, "Allowance must be a whole number, or empty for unlimited"],
      ["100", "Allowance must be a whole number, or empty for unlimited"],
      [3_000_000_000, "Allowance cannot exceed 2,147,483,647"],
    ] as const) {
      const bad = await putRaw(admin, { free: { monthlyTokens: value, messagesPerDay: null }, earlyAccess: UNLIMITED });
      expect(bad.status).toBe(400);
      expect(bad.error.message).toContain(message);
    }
    expect((await putRaw(admin, { free: UNLIMITED })).status).toBe(400);
    // Nothing changed by the refused ones.
    expect(await admin.ok(planAllowancesApi.get, {})).toEqual(saved);
  });
});

describe("GET /api/usage", () => {
  it("needs a session", async () => {
    expect((await callApp(t.app, usageApi.mine, {})).status).toBe(401);
  });

  it("counts the stand-in's tokens and the messages sent today, with what is left and when each resets", async () => {
    await setAllowances({ monthlyTokens: 50_000, messagesPerDay: 100 });
    const { client } = await member();
    const fresh = await usageOf(client);
    expect(fresh).toMatchObject({ planType: "free", unlimited: false, blocked: null });
    expect(fresh.tokens).toMatchObject({ used: 0, limit: 50_000, left: 50_000 });
    expect(fresh.messages).toMatchObject({ used: 0, limit: 100, left: 100 });

    const chat = await newChat(client);
    expect((await send(client, chat.id, "first question")).status).toBe(200);
    expect((await send(client, chat.id, "second question please")).status).toBe(200);
    const tokens = await storedTokens(client, [chat.id]);
    expect(tokens).toBeGreaterThan(0);
    const after = await usageOf(client);
    expect(after.tokens).toMatchObject({ used: tokens, left: 50_000 - tokens });
    expect(after.messages).toMatchObject({ used: 2, left: 98 });
    const now = new Date();
    expect(after.tokens.resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(after.messages.resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString());

    // A regenerate is not a new message: its tokens count, the messages do not.
    expect((await regenerate(client, chat.id)).status).toBe(200);
    const regenerated = await usageOf(client);
    expect(regenerated.messages.used).toBe(2);
    expect(regenerated.tokens.used).toBeGreaterThan(tokens);
  });
});

describe("messages per day", () => {
  it("allows exactly the allowance, then 429 naming it (with Retry-After) and stores nothing, for a regenerate too", async () => {
    await setAllowances({ monthlyTokens: null, messagesPerDay: 3 });
    const { client } = await member();
    const chat = await newChat(client);
    for (let i = 1; i <= 3; i++) expect((await send(client, chat.id, `message ${i}`)).status).toBe(200);
    const stored = (await messagesOf(client, chat.id)).length;

    const refused = await send(client, chat.id, "one too many");
    expect(refused.status).toBe(429);
    expect(refused.error.message).toBe(messagesSpentMessage(3));
    expect(refused.error.message).toBe("You have sent your 3 messages for today. You can send more after midnight UTC.");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await messagesOf(client, chat.id)).length).toBe(stored);
    // Another chat is no way around it.
    expect((await send(client, (await newChat(client)).id)).status).toBe(429);

    const usage = await usageOf(client);
    expect(usage.messages).toMatchObject({ used: 3, limit: 3, left: 0 });
    expect(usage.blocked).toBe(messagesSpentMessage(3));
    expect((await regenerate(client, chat.id)).status).toBe(429);

    // A raised allowance applies at once.
    await setAllowances({ monthlyTokens: null, messagesPerDay: 4 });
    expect((await send(client, chat.id, "now it fits")).status).toBe(200);
    expect((await send(client, chat.id, "and this does not")).status).toBe(429);
  });

  // Issue 28, finding 3: with the day's messages sent, a one-shot call and a regenerate still answered 200.
  it("once spent, every AI path gets the same 429 and asks no model: one-shot, regenerate, edit, course generation", async () => {
    await setAllowances(UNLIMITED, { monthlyTokens: null, messagesPerDay: 2 });
    const { client } = await member("earlyAccess");
    const chat = await newChat(client);
    for (const text of ["first", "second"]) expect((await send(client, chat.id, text)).status).toBe(200);
    const stored = await messagesOf(client, chat.id);
    const firstQuestion = stored.find((m) => m.role === "user");
    const course = await client.ok(coursesApi.create, { body: { title: "Messages spent" } });
    const before = { asked: fake.requests.length, usage: await usageOf(client) };
    expect(before.usage.messages).toMatchObject({ used: 2, left: 0 });

    const id = course.id;
    for (const [name, call] of [
      ["one-shot", () => oneShot(client)],
      ["regenerate", () => regenerate(client, chat.id)],
      [
        "edit",
        () =>
          client.call(chatsApi.editMessage, {
            params: { id: chat.id, messageId: firstQuestion?.id ?? 0 },
            body: { content: "first, again" },
          }),
      ],
      ["course description", () => client.call(courseAiApi.describe, { body: { title: "Anything" } })],
      ["outline", () => client.call(courseAiApi.proposeOutline, { params: { id }, body: {} })],
      ["approve", () => client.call(courseAiApi.approveOutline, { params: { id }, body: { outline: OUTLINE } })],
    ] as const) {
      const res = await call();
      expect({ name, status: res.status, message: res.error.message }).toEqual({ name, status: 429, message: messagesSpentMessage(2) });
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
    // Nothing was asked, stored or counted.
    expect(fake.requests.length).toBe(before.asked);
    expect(await messagesOf(client, chat.id)).toHaveLength(stored.length);
    expect(await client.ok(coursesApi.modules, { params: { id } })).toEqual([]);
    expect(await usageOf(client)).toEqual(before.usage);

    // The same paths go once the allowance is raised.
    await setAllowances(UNLIMITED, { monthlyTokens: null, messagesPerDay: 3 });
    expect((await oneShot(client)).status).toBe(200);
    expect((await regenerate(client, chat.id)).status).toBe(200);
  });

  it("is per plan: an Early Access user with no allowance set is not limited", async () => {
    await setAllowances({ monthlyTokens: null, messagesPerDay: 1 });
    const early = await member("earlyAccess");
    const chat = await newChat(early.client);
    for (let i = 0; i < 3; i++) expect((await send(early.client, chat.id)).status).toBe(200);
    expect(await usageOf(early.client)).toMatchObject({ planType: "earlyAccess", unlimited: true, blocked: null });
  });

  it("admins are unlimited, whatever their plan's allowance", async () => {
    await setAllowances({ monthlyTokens: 1, messagesPerDay: 1 }, { monthlyTokens: 1, messagesPerDay: 1 });
    const chat = await newChat(admin);
    for (let i = 0; i < 3; i++) expect((await send(admin, chat.id)).status).toBe(200);
    const usage = await usageOf(admin);
    expect(usage).toMatchObject({ unlimited: true, blocked: null, tokens: { limit: null, left: null }, messages: { limit: null } });
    expect(usage.messages.used).toBeGreaterThanOrEqual(3);
    expect((await oneShot(admin)).status).toBe(200);
  });
});

describe("tokens per month", () => {
  it("a reply running when the allowance is reached finishes; then sends, regenerates and one-shot calls get 429", async () => {
    await setAllowances(UNLIMITED, UNLIMITED);
    const { client } = await member("earlyAccess");
    const chat = await newChat(client);
    expect((await send(client, chat.id, "warm up")).status).toBe(200);
    const spent = (await usageOf(client)).tokens.used;
    expect(spent).toBe(await storedTokens(client, [chat.id]));
    await setAllowances(UNLIMITED, { monthlyTokens: spent + 1, messagesPerDay: null });

    // Under the allowance when it starts, over it when it ends: it runs to the end.
    const running = parseEvents((await send(client, chat.id, "tell me more #slow")).response.body);
    const done = running.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("complete");
    const over = await usageOf(client);
    expect(over.tokens.used).toBe(await storedTokens(client, [chat.id]));
    expect(over.tokens).toMatchObject({ limit: spent + 1, left: 0 });

    const message = `You have used your ${(spent + 1).toLocaleString("en-US")} tokens for this month. Your allowance resets on ${nextMonthText()}`;
    expect(over.blocked).toBe(message);
    for (const res of [await send(client, chat.id, "more?"), await regenerate(client, chat.id), await oneShot(client)]) {
      expect(res.status).toBe(429);
      expect(res.error.message).toBe(message);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
  });

  it("POST /api/ai/chat adds its tokens to the month", async () => {
    await setAllowances(UNLIMITED, UNLIMITED);
    const { client } = await member();
    const res = await oneShot(client, "count me");
    expect(res.status).toBe(200);
    expect((await usageOf(client)).tokens.used).toBeGreaterThan(0);
  });

  it("course generation adds to the month's tokens, and is refused once they are spent", async () => {
    await setAllowances(UNLIMITED, UNLIMITED);
    const { client } = await member("earlyAccess");
    const course = await client.ok(coursesApi.create, { body: { title: "Counting tokens" } });
    const params = { id: course.id };
    expect((await client.call(courseAiApi.proposeOutline, { params, body: {} })).status).toBe(200);
    const afterOutline = (await usageOf(client)).tokens.used;
    expect(afterOutline).toBeGreaterThan(0);
    expect((await client.call(courseAiApi.approveOutline, { params, body: { outline: OUTLINE } })).status).toBe(201);
    let run = await client.ok(courseAiApi.generation, { params });
    for (let i = 0; i < 200 && run?.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = await client.ok(courseAiApi.generation, { params });
    }
    expect(run).toMatchObject({ status: "done", done: 4 });
    const afterLessons = (await usageOf(client)).tokens.used;
    expect(afterLessons).toBeGreaterThan(afterOutline);

    await setAllowances(UNLIMITED, { monthlyTokens: afterLessons, messagesPerDay: null });
    const message = tokensSpentMessage(afterLessons, new Date((await usageOf(client)).tokens.resetsAt));
    const other = { id: (await client.ok(coursesApi.create, { body: { title: "Refused" } })).id };
    for (const [name, call] of [
      ["approve", () => client.call(courseAiApi.approveOutline, { params: other, body: { outline: OUTLINE } })],
      ["outline", () => client.call(courseAiApi.proposeOutline, { params: other, body: {} })],
      ["course description", () => client.call(courseAiApi.describe, { body: { title: "Anything" } })],
    ] as const) {
      const res = await call();
      expect({ name, status: res.status, message: res.error.message }).toEqual({ name, status: 429, message });
    }
    // Nothing was created by the refused approve.
    expect(await client.ok(coursesApi.modules, { params: other })).toEqual([]);
    expect((await usageOf(client)).tokens.used).toBe(afterLessons);
  });
});

describe("admin users list", () => {
  it("shows each user's tokens this month and messages today against their plan (admins: no limits)", async () => {
    await setAllowances({ monthlyTokens: 50_000, messagesPerDay: 100 });
    const someone = await member();
    const chat = await newChat(someone.client);
    expect((await send(someone.client, chat.id)).status).toBe(200);
    const tokens = await storedTokens(someone.client, [chat.id]);

    const list = await admin.call(adminUsersApi.list, { query: { search: someone.username } });
    expect(list.status).toBe(200);
    expect(list.data.items[0]).toMatchObject({
      id: someone.id,
      planUsage: { tokensThisMonth: tokens, monthlyTokens: 50_000, messagesToday: 1, messagesPerDay: 100 },
    });
    const all = (await admin.ok(adminUsersApi.list, { query: { limit: 100 } })).items;
    expect(all.find((u) => u.id === adminId)?.planUsage).toMatchObject({ monthlyTokens: null, messagesPerDay: null });
    // The same numbers after an admin's change of the user.
    const changed = await admin.ok(adminUsersApi.update, { params: { id: someone.id }, body: { name: "Renamed" } });
    expect(changed.planUsage).toEqual({ tokensThisMonth: tokens, monthlyTokens: 50_000, messagesToday: 1, messagesPerDay: 100 });
  });
});

// Two instances on one PostgreSQL (TEST_DB=postgres, as tests/multi): parallel sends of one user, half on each,
// are serialised by the user row lock. PGlite is one connection in one process, so there it cannot race.
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

    it("ten parallel sends against an allowance of 4: exactly 4 stored, 6 refused with the message", { timeout: 60_000 }, async () => {
      const [a, b] = apps as [FastifyInstance, FastifyInstance];
      const owner = (await registerAndSignIn(a)).client;
      await pointPlatformAt(owner, "openai", fake);
      const allowances = { free: { monthlyTokens: null, messagesPerDay: 4 }, earlyAccess: UNLIMITED };
      expect((await owner.call(planAllowancesApi.update, { body: allowances })).status).toBe(200);
      const user = (await registerAndSignIn(a)).client;
      const cookie = user.sessionCookie ?? "";
      const chats = await Promise.all(Array.from({ length: 10 }, () => newChat(user)));
      const statuses = await Promise.all(
        chats.map((chat, i) =>
          callApp(
            i % 2 === 0 ? a : b,
            chatsApi.reply,
            { params: { id: chat.id }, body: { content: `parallel ${i}` } },
            { headers: { cookie } },
          ).then((res) => ({ status: res.status, message: res.status === 429 ? res.error.message : null })),
        ),
      );
      expect(statuses.filter((s) => s.status === 200).length).toBe(4);
      expect(statuses.filter((s) => s.status === 429).map((s) => s.message)).toEqual(Array(6).fill(messagesSpentMessage(4)));
      const usage = await callApp(b, usageApi.mine, {}, { headers: { cookie } }).then((res) => res.data);
      expect(usage.messages).toMatchObject({ used: 4, left: 0 });
    });
  });
