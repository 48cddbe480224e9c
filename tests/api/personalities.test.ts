import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
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
  const res = await admin.patch(`/api/admin/users/${user.id}`, { planType: "earlyAccess" });
  expect(res.statusCode).toBe(200);
  expect(res.json().planType).toBe("earlyAccess");
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
    const created = await early.post("/api/personalities", tutor);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(created.json()).toMatchObject({ ...tutor, platformSlug: null, model: null });
    expect((await early.get(`/api/personalities/${id}`)).json().name).toBe("Socratic Tutor");
    // Only what is sent changes: the temperature and length set at creation stay.
    const patched = await early.patch(`/api/personalities/${id}`, { tone: "friendly" });
    expect(patched.json()).toMatchObject({
      tone: "friendly",
      instructions: tutor.instructions,
      temperature: 0.2,
      maxTokens: 512,
      description: tutor.description,
    });
    expect((await early.get("/api/personalities")).json().map((p: { id: number }) => p.id)).toContain(id);
    expect((await early.request({ method: "DELETE", url: `/api/personalities/${id}` })).statusCode).toBe(204);
    expect((await early.get(`/api/personalities/${id}`)).statusCode).toBe(404);
  });

  it("validates with the contract's messages", async () => {
    const res = await early.post("/api/personalities", { ...tutor, name: "", instructions: "", temperature: 3 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      name: "Name is required",
      instructions: "Instructions are required",
      temperature: "Temperature must be between 0 and 1",
    });
  });

  it("answers 404 to another user on read, update, delete and in a chat, and changes nothing", async () => {
    const id = (await early.post("/api/personalities", tutor)).json().id as number;
    expect((await other.get(`/api/personalities/${id}`)).statusCode).toBe(404);
    expect((await other.patch(`/api/personalities/${id}`, { name: "Mine now" })).statusCode).toBe(404);
    expect((await other.request({ method: "DELETE", url: `/api/personalities/${id}` })).statusCode).toBe(404);
    const chat = await newChat(other);
    expect((await other.patch(`/api/chats/${chat.id}`, { personalityId: id })).statusCode).toBe(404);
    const once = await other.post("/api/ai/chat", {
      platformSlug: "openai",
      messages: [{ role: "user", content: "hi" }],
      personalityId: id,
    });
    expect(once.statusCode).toBe(404);
    expect((await early.get(`/api/personalities/${id}`)).json().name).toBe("Socratic Tutor");
  });

  it("refuses a free user with 403 naming the plan, and lets an admin in", async () => {
    const res = await free.post("/api/personalities", tutor);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/Early Access plan/);
    expect((await free.get("/api/personalities")).statusCode).toBe(403);
    expect((await admin.post("/api/personalities", tutor)).statusCode).toBe(201);
    expect((await t.app.inject({ method: "GET", url: "/api/personalities" })).statusCode).toBe(401);
  });

  it("speaks in a chat: global prompt then its instructions, its temperature, and the reply names it", async () => {
    const id = (await early.post("/api/personalities", tutor)).json().id as number;
    const chat = await newChat(early);
    const picked = await early.patch(`/api/chats/${chat.id}`, { personalityId: id });
    expect(picked.json().personalityId).toBe(id);
    const events = parseEvents((await early.post(`/api/chats/${chat.id}/reply`, { content: "What is 2+2?" })).body);
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

    const once = await early.post("/api/ai/chat", {
      platformSlug: "openai",
      messages: [{ role: "user", content: "hi" }],
      personalityId: id,
    });
    expect(once.statusCode).toBe(200);
    expect(lastBody<{ temperature: number }>().temperature).toBe(0.2);
  });

  it("sends the provider exactly the temperature chosen (stored as numeric, never a float's 0.699999988)", async () => {
    for (const temperature of [0.7, 0.3, 0.1]) {
      const id = (await early.post("/api/personalities", { ...tutor, temperature })).json().id as number;
      expect((await early.get(`/api/personalities/${id}`)).json().temperature).toBe(temperature);
      const chat = await newChat(early);
      await early.patch(`/api/chats/${chat.id}`, { personalityId: id });
      await early.post(`/api/chats/${chat.id}/reply`, { content: "Hello" });
      expect(fake.requests.at(-1)?.rawBody).toContain(`"temperature":${temperature},`);
    }
    const refused = await early.post("/api/personalities", { ...tutor, temperature: 0.25 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.temperature).toBe("Temperature moves in steps of 0.1");
  });
});

describe("a new chat with its personality, in the create call", () => {
  /** How many chats this user has (listed or not: a chat is listed only once it has a message). */
  const chatCount = async (client: CookieClient) => {
    const id = (await client.get("/api/user")).json().id as number;
    const rows = await t.database.db.execute(sql`select count(*)::int as n from chats where user_id = ${id}`);
    return (rows.rows[0] as { n: number }).n;
  };

  it("sets it for its owner on Early Access, in the answer and in every later read, and the reply speaks with it", async () => {
    const id = (await early.post("/api/personalities", tutor)).json().id as number;
    const created = await early.post("/api/chats", { aiPlatform: "openai", model: "small-model", personalityId: id });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ personalityId: id, aiPlatform: "openai", model: "small-model" });
    const chatId = created.json().id as number;
    expect((await early.get(`/api/chats/${chatId}`)).json().personalityId).toBe(id);
    const done = parseEvents((await early.post(`/api/chats/${chatId}/reply`, { content: "Hi" })).body).at(-1);
    expect(done?.type === "done" && done.assistantMessage.personalityName).toBe("Socratic Tutor");
    // No personality named, or null: none, as before.
    expect((await early.post("/api/chats", {})).json().personalityId).toBeNull();
    expect((await early.post("/api/chats", { personalityId: null })).json().personalityId).toBeNull();
  });

  it("takes the personality's preferred model when the call names none, and the one named otherwise", async () => {
    const id = (await early.post("/api/personalities", { ...tutor, platformSlug: "openai", model: "big-model" })).json().id as number;
    expect((await early.post("/api/chats", { personalityId: id })).json()).toMatchObject({ aiPlatform: "openai", model: "big-model" });
    const named = await early.post("/api/chats", { aiPlatform: "openai", model: "small-model", personalityId: id });
    expect(named.json()).toMatchObject({ personalityId: id, model: "small-model" });
  });

  it("refuses another user's personality with 404, and creates nothing", async () => {
    const id = (await early.post("/api/personalities", tutor)).json().id as number;
    const before = await chatCount(other);
    const refused = await other.post("/api/chats", { personalityId: id });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe("Personality not found");
    expect(await chatCount(other)).toBe(before);
    // One that does not exist at all looks the same.
    expect((await other.post("/api/chats", { personalityId: 99_999_999 })).statusCode).toBe(404);
  });

  it("refuses a free user with 403 and the plan's message, even with a personality made while on Early Access", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    expect((await admin.patch(`/api/admin/users/${user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
    const id = (await client.post("/api/personalities", tutor)).json().id as number;
    expect((await admin.patch(`/api/admin/users/${user.id}`, { planType: "free" })).statusCode).toBe(200);
    const before = await chatCount(client);
    const refused = await client.post("/api/chats", { personalityId: id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PLAN_REFUSALS.personalities);
    expect(await chatCount(client)).toBe(before);
    expect((await free.post("/api/chats", { personalityId: id })).json().message).toBe(PLAN_REFUSALS.personalities);
    // Without one, a free user's chat is created as before.
    expect((await client.post("/api/chats", {})).statusCode).toBe(201);
  });

  it("refuses a personality id that is not one with 400", async () => {
    for (const personalityId of ["1", 0, -3, 1.5]) {
      const res = await early.post("/api/chats", { personalityId });
      expect({ personalityId, status: res.statusCode }).toEqual({ personalityId, status: 400 });
    }
  });
});

describe("plans and models", () => {
  it("shows a free user the premium models as locked, and refuses them with 403 on every call", async () => {
    const platforms = (await free.get("/api/ai/platforms")).json() as {
      slug: string;
      models: string[];
      lockedModels: string[];
      defaultModel: string;
    }[];
    const openai = platforms.find((p) => p.slug === "openai");
    expect(openai).toMatchObject({ models: ["small-model"], lockedModels: ["big-model"], defaultModel: "small-model" });
    const chat = await newChat(free, { model: "big-model" });
    const streamed = await free.post(`/api/chats/${chat.id}/reply`, { content: "hello" });
    expect(streamed.statusCode).toBe(403);
    expect(streamed.json().message).toMatch(/big-model needs the Early Access plan/);
    const once = await free.post("/api/ai/chat", {
      platformSlug: "openai",
      model: "big-model",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(once.statusCode).toBe(403);
    // With no model named, a free user gets the first model their plan allows.
    const allowed = await free.post("/api/ai/chat", { platformSlug: "openai", messages: [{ role: "user", content: "hi" }] });
    expect(allowed.statusCode).toBe(200);
    expect(lastBody<{ model: string }>().model).toBe("small-model");
  });

  it("lets Early Access users and admins use every model", async () => {
    for (const client of [early, admin]) {
      const platforms = (await client.get("/api/ai/platforms")).json() as { slug: string; models: string[]; lockedModels: string[] }[];
      expect(platforms.find((p) => p.slug === "openai")).toMatchObject({ models: ["small-model", "big-model"], lockedModels: [] });
      const once = await client.post("/api/ai/chat", {
        platformSlug: "openai",
        model: "big-model",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(once.statusCode).toBe(200);
    }
  });

  it("lets only admins change a plan, and a downgrade applies at once", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    expect((await client.get("/api/user")).json().planType).toBe("free");
    expect((await early.patch(`/api/admin/users/${user.id}`, { planType: "earlyAccess" })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: "PATCH", url: `/api/admin/users/${user.id}`, payload: { planType: "earlyAccess" } })).statusCode,
    ).toBe(401);
    expect((await admin.patch(`/api/admin/users/${user.id}`, { planType: "gold" })).statusCode).toBe(400);
    expect((await admin.patch("/api/admin/users/99999999", { planType: "free" })).statusCode).toBe(404);
    expect((await admin.patch(`/api/admin/users/${user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
    expect((await client.get("/api/user")).json().planType).toBe("earlyAccess");
    expect((await client.post("/api/personalities", tutor)).statusCode).toBe(201);
    expect((await admin.patch(`/api/admin/users/${user.id}`, { planType: "free" })).statusCode).toBe(200);
    expect((await client.post("/api/personalities", tutor)).statusCode).toBe(403);
  });
});
