import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { personalitiesApi } from "../../src/shared/contracts/personalities.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let early: CookieClient;
let other: CookieClient;
let free: CookieClient;

const tutor = {
  name: "Socratic Tutor",
  description: "Answers with questions",
  tone: "Socratic",
  instructions: "Never give the answer directly; guide with questions.",
  temperature: 0.2,
  maxTokens: 512,
};

/** The JSON body of the last request the provider stand-in received. */
function lastBody<T>(): T {
  const last = fake.requests.at(-1);
  if (!last) throw new Error("the provider stand-in received no request");
  return last.body as T;
}

/** Registers a user and gives them Early Access the way an admin does. */
async function earlyAccessUser(): Promise<CookieClient> {
  const { client, user } = await registerAndSignIn(t.app);
  const res = await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } });
  expect(res.status).toBe(200);
  expect(res.data.planType).toBe("earlyAccess");
  return client;
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake, {
    settings: { models: ["small-model", "big-model"], defaultModel: "big-model", freeModels: ["small-model"] },
  });
  await t.database.db.execute(
    "insert into global_ai_prompts (key, prompt, description) values ('chat-system', 'GLOBAL RULES FIRST', 'chat system prompt')",
  );
  early = await earlyAccessUser();
  other = await earlyAccessUser();
  free = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe("training personalities", () => {
  it("lets an Early Access user create, read, update, list and delete their own", async () => {
    const created = await early.call(personalitiesApi.create, { body: tutor });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.data).toMatchObject({ ...tutor, platformSlug: null, model: null });
    expect((await early.ok(personalitiesApi.get, { params: { id: id } })).name).toBe("Socratic Tutor");
    // Only what is sent changes: the temperature and length set at creation stay.
    const patched = await early.call(personalitiesApi.update, { params: { id: id }, body: { tone: "friendly" } });
    expect(patched.data).toMatchObject({
      tone: "friendly",
      instructions: tutor.instructions,
      temperature: 0.2,
      maxTokens: 512,
      description: tutor.description,
    });
    expect((await early.ok(personalitiesApi.list, {})).map((p: { id: number }) => p.id)).toContain(id);
    expect((await early.call(personalitiesApi.remove, { params: { id: id } })).status).toBe(204);
    expect((await early.call(personalitiesApi.get, { params: { id: id } })).status).toBe(404);
  });

  it("validates with the contract's messages", async () => {
    const res = await early.call(personalitiesApi.create, { body: { ...tutor, name: "", instructions: "", temperature: 3 } });
    expect(res.status).toBe(400);
    expect(res.error.errors).toMatchObject({
      name: "Name is required",
      instructions: "Instructions are required",
      temperature: "Temperature must be between 0 and 1",
    });
  });

  it("answers 404 to another user on read, update, delete and in a chat, and changes nothing", async () => {
    const id = (await early.ok(personalitiesApi.create, { body: tutor })).id;
    expect((await other.call(personalitiesApi.get, { params: { id: id } })).status).toBe(404);
    expect((await other.call(personalitiesApi.update, { params: { id: id }, body: { name: "Mine now" } })).status).toBe(404);
    expect((await other.call(personalitiesApi.remove, { params: { id: id } })).status).toBe(404);
    const chat = await newChat(other);
    expect((await other.call(chatsApi.update, { params: { id: chat.id }, body: { personalityId: id } })).status).toBe(404);
    const once = await other.call(chatsApi.aiChat, {
      body: {
        platformSlug: "openai",
        messages: [{ role: "user", content: "hi" }],
        personalityId: id,
      },
    });
    expect(once.status).toBe(404);
    expect((await early.ok(personalitiesApi.get, { params: { id: id } })).name).toBe("Socratic Tutor");
  });

  it("refuses a free user with 403 naming the plan, and lets an admin in", async () => {
    const res = await free.call(personalitiesApi.create, { body: tutor });
    expect(res.status).toBe(403);
    expect(res.error.message).toMatch(/Early Access plan/);
    expect((await free.call(personalitiesApi.list, {})).status).toBe(403);
    expect((await admin.call(personalitiesApi.create, { body: tutor })).status).toBe(201);
    expect((await callApp(t.app, personalitiesApi.list, {})).status).toBe(401);
  });

  it("speaks in a chat: global prompt then its instructions, its temperature, and the reply names it", async () => {
    const id = (await early.ok(personalitiesApi.create, { body: tutor })).id;
    const chat = await newChat(early);
    const picked = await early.call(chatsApi.update, { params: { id: chat.id }, body: { personalityId: id } });
    expect(picked.data.personalityId).toBe(id);
    const events = parseEvents(
      (await early.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "What is 2+2?" } })).response.body,
    );
    expect(textOf(events)).toBe("Echo: What is 2+2?");
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.personalityName).toBe("Socratic Tutor");
    const sent = fake.requests.at(-1)?.body as {
      messages: { role: string; content: string }[];
      temperature: number;
      max_tokens?: number;
      max_completion_tokens?: number;
    };
    const system = sent.messages.find((m) => m.role === "system")?.content ?? "";
    expect(system.indexOf("GLOBAL RULES FIRST")).toBe(0);
    expect(system.indexOf(tutor.instructions)).toBeGreaterThan(system.indexOf("GLOBAL RULES FIRST"));
    expect(sent.temperature).toBe(0.2);
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(512);

    const once = await early.call(chatsApi.aiChat, {
      body: {
        platformSlug: "openai",
        messages: [{ role: "user", content: "hi" }],
        personalityId: id,
      },
    });
    expect(once.status).toBe(200);
    expect(lastBody<{ temperature: number }>().temperature).toBe(0.2);
  });

  it("sends the provider exactly the temperature chosen (stored as numeric, never a float's 0.699999988)", async () => {
    for (const temperature of [0.7, 0.3, 0.1]) {
      const id = (await early.ok(personalitiesApi.create, { body: { ...tutor, temperature } })).id;
      expect((await early.ok(personalitiesApi.get, { params: { id: id } })).temperature).toBe(temperature);
      const chat = await newChat(early);
      await early.ok(chatsApi.update, { params: { id: chat.id }, body: { personalityId: id } });
      await early.ok(chatsApi.reply, { params: { id: chat.id }, body: { content: "Hello" } });
      expect(fake.requests.at(-1)?.rawBody).toContain(`"temperature":${temperature},`);
    }
    const refused = await early.call(personalitiesApi.create, { body: { ...tutor, temperature: 0.25 } });
    expect(refused.status).toBe(400);
    expect(refused.error.errors?.temperature).toBe("Temperature moves in steps of 0.1");
  });
});

describe("a new chat with its personality, in the create call", () => {
  /** How many chats this user has (listed or not: a chat is listed only once it has a message). */
  const chatCount = async (client: CookieClient) => {
    const id = (await client.ok(userApi.me, {})).id;
    const rows = await t.database.db.execute(sql`select count(*)::int as n from chats where user_id = ${id}`);
    return (rows.rows[0] as { n: number }).n;
  };

  it("sets it for its owner on Early Access, in the answer and in every later read, and the reply speaks with it", async () => {
    const id = (await early.ok(personalitiesApi.create, { body: tutor })).id;
    const created = await early.call(chatsApi.create, { body: { aiPlatform: "openai", model: "small-model", personalityId: id } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ personalityId: id, aiPlatform: "openai", model: "small-model" });
    const chatId = created.data.id;
    expect((await early.ok(chatsApi.get, { params: { id: chatId } })).personalityId).toBe(id);
    const done = parseEvents((await early.call(chatsApi.reply, { params: { id: chatId }, body: { content: "Hi" } })).response.body).at(-1);
    expect(done?.type === "done" && done.assistantMessage.personalityName).toBe("Socratic Tutor");
    // No personality named, or null: none, as before.
    expect((await early.ok(chatsApi.create, { body: {} })).personalityId).toBeNull();
    expect((await early.ok(chatsApi.create, { body: { personalityId: null } })).personalityId).toBeNull();
  });

  it("takes the personality's preferred model when the call names none, and the one named otherwise", async () => {
    const id = (await early.ok(personalitiesApi.create, { body: { ...tutor, platformSlug: "openai", model: "big-model" } })).id;
    expect(await early.ok(chatsApi.create, { body: { personalityId: id } })).toMatchObject({ aiPlatform: "openai", model: "big-model" });
    const named = await early.call(chatsApi.create, { body: { aiPlatform: "openai", model: "small-model", personalityId: id } });
    expect(named.data).toMatchObject({ personalityId: id, model: "small-model" });
  });

  it("refuses another user's personality with 404, and creates nothing", async () => {
    const id = (await early.ok(personalitiesApi.create, { body: tutor })).id;
    const before = await chatCount(other);
    const refused = await other.call(chatsApi.create, { body: { personalityId: id } });
    expect(refused.status).toBe(404);
    expect(refused.error.message).toBe("Personality not found");
    expect(await chatCount(other)).toBe(before);
    // One that does not exist at all looks the same.
    expect((await other.call(chatsApi.create, { body: { personalityId: 99_999_999 } })).status).toBe(404);
  });

  it("refuses a free user with 403 and the plan's message, even with a personality made while on Early Access", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    expect((await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } })).status).toBe(200);
    const id = (await client.ok(personalitiesApi.create, { body: tutor })).id;
    expect((await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "free" } })).status).toBe(200);
    const before = await chatCount(client);
    const refused = await client.call(chatsApi.create, { body: { personalityId: id } });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe(PLAN_REFUSALS.personalities);
    expect(await chatCount(client)).toBe(before);
    expect((await free.call(chatsApi.create, { body: { personalityId: id } })).error.message).toBe(PLAN_REFUSALS.personalities);
    // Without one, a free user's chat is created as before.
    expect((await client.call(chatsApi.create, { body: {} })).status).toBe(201);
  });

  it("refuses a personality id that is not one with 400", async () => {
    for (const personalityId of ["1", 0, -3, 1.5]) {
      const res = await early.call(chatsApi.create, { body: {} }, { rawBody: { personalityId } });
      expect({ personalityId, status: res.status }).toEqual({ personalityId, status: 400 });
    }
  });
});

describe("plans and models", () => {
  it("shows a free user the premium models as locked, and refuses them with 403 on every call", async () => {
    const platforms = await free.ok(aiPlatformsApi.forChat, {});
    const openai = platforms.find((p) => p.slug === "openai");
    expect(openai).toMatchObject({ models: ["small-model"], lockedModels: ["big-model"], defaultModel: "small-model" });
    const chat = await newChat(free, { model: "big-model" });
    const streamed = await free.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "hello" } });
    expect(streamed.status).toBe(403);
    expect(streamed.error.message).toMatch(/big-model needs the Early Access plan/);
    const once = await free.call(chatsApi.aiChat, {
      body: {
        platformSlug: "openai",
        model: "big-model",
        messages: [{ role: "user", content: "hi" }],
      },
    });
    expect(once.status).toBe(403);
    // With no model named, a free user gets the first model their plan allows.
    const allowed = await free.call(chatsApi.aiChat, { body: { platformSlug: "openai", messages: [{ role: "user", content: "hi" }] } });
    expect(allowed.status).toBe(200);
    expect(lastBody<{ model: string }>().model).toBe("small-model");
  });

  it("lets Early Access users and admins use every model", async () => {
    for (const client of [early, admin]) {
      const platforms = await client.ok(aiPlatformsApi.forChat, {});
      expect(platforms.find((p) => p.slug === "openai")).toMatchObject({ models: ["small-model", "big-model"], lockedModels: [] });
      const once = await client.call(chatsApi.aiChat, {
        body: {
          platformSlug: "openai",
          model: "big-model",
          messages: [{ role: "user", content: "hi" }],
        },
      });
      expect(once.status).toBe(200);
    }
  });

  it("lets only admins change a plan, and a downgrade applies at once", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    expect((await client.ok(userApi.me, {})).planType).toBe("free");
    expect((await early.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } })).status).toBe(403);
    expect((await callApp(t.app, adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } })).status).toBe(401);
    expect(
      (await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "free" } }, { rawBody: { planType: "gold" } }))
        .status,
    ).toBe(400);
    expect((await admin.call(adminUsersApi.update, { params: { id: 99999999 }, body: { planType: "free" } })).status).toBe(404);
    expect((await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } })).status).toBe(200);
    expect((await client.ok(userApi.me, {})).planType).toBe("earlyAccess");
    expect((await client.call(personalitiesApi.create, { body: tutor })).status).toBe(201);
    expect((await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "free" } })).status).toBe(200);
    expect((await client.call(personalitiesApi.create, { body: tutor })).status).toBe(403);
  });
});
