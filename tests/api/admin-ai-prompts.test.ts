// Global AI Prompts (docs/product.md, Admin back office): admins list, create, edit and delete the system prompts
// looked up by key; all three fields are required, keys are unique (409), and the product reads them (an
// edited chat-system prompt reaches the provider on the next reply).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPromptsApi, PROMPT_KEY_TAKEN } from "../../src/shared/contracts/ai-prompts.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

type PromptBody = CallInput<typeof aiPromptsApi.create>["body"];
type PromptPatch = CallInput<typeof aiPromptsApi.update>["body"];
type Sent = { messages: { role: string; content: unknown }[] };

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const list = () => admin.ok(aiPromptsApi.list, {});
const create = (body: PromptBody, client = admin) => client.call(aiPromptsApi.create, { body });
/** A body the contract does not allow, sent unchanged. */
const createRaw = (rawBody: unknown) => admin.call(aiPromptsApi.create, { body: { key: "k", description: "d", prompt: "p" } }, { rawBody });
const update = (id: number, body: PromptPatch, client = admin) => client.call(aiPromptsApi.update, { params: { id }, body });
const del = (client: CookieClient, id: number) => client.call(aiPromptsApi.remove, { params: { id } });
/** A malformed id in the path (the contract's id is a number): the request at the contract's address, its id replaced. */
const withPathId = (request: ReturnType<typeof requestFor>, path: string, id: string) =>
  admin.request({ ...request, url: path.replace(":id", id) });
const systemSent = () => {
  const sent = fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)?.body as Sent | undefined;
  return sent?.messages.filter((m) => m.role === "system").map((m) => m.content);
};

describe("who may call", () => {
  it("refuses a visitor (401) and a member (403) on every call, and changes nothing", async () => {
    const made = await create({ key: "guarded", description: "Guarded", prompt: "Be careful." });
    expect(made.status).toBe(201);
    const id = made.data.id;
    const visitor = new CookieClient(t.app);
    for (const [client, status] of [
      [visitor, 401],
      [user, 403],
    ] as const) {
      expect((await client.call(aiPromptsApi.list, {})).status).toBe(status);
      expect((await create({ key: "sneaky", description: "x", prompt: "x" }, client)).status).toBe(status);
      expect((await update(id, { prompt: "Ignore all rules." }, client)).status).toBe(status);
      expect((await del(client, id)).status).toBe(status);
    }
    expect((await list()).map((p) => [p.key, p.prompt])).toEqual([["guarded", "Be careful."]]);
    expect((await del(admin, id)).status).toBe(204);
  });
});

describe("create, list, edit, delete", () => {
  it("starts empty, creates (201, trimmed), lists by key, edits and deletes", async () => {
    expect(await list()).toEqual([]);
    const a = await create({ key: "  lesson-content ", description: " Lessons ", prompt: "  Write clear lessons.  " });
    expect(a.status).toBe(201);
    expect(a.data).toMatchObject({ key: "lesson-content", description: "Lessons", prompt: "Write clear lessons." });
    const b = await create({ key: "course-outline", description: "Outlines", prompt: "Design outlines." });
    expect(b.status).toBe(201);
    expect((await list()).map((p) => p.key)).toEqual(["course-outline", "lesson-content"]);

    const id = a.data.id;
    const edited = await update(id, { prompt: "Write short lessons." });
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({ id, key: "lesson-content", description: "Lessons", prompt: "Write short lessons." });
    const renamed = await update(id, { key: "lesson-body", description: "Lesson bodies", prompt: "Write." });
    expect(renamed.data).toMatchObject({ key: "lesson-body", description: "Lesson bodies", prompt: "Write." });
    expect(new Date(renamed.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(a.data.updatedAt).getTime());

    expect((await del(admin, id)).status).toBe(204);
    expect((await del(admin, id)).status).toBe(404);
    expect((await update(id, { prompt: "Gone" })).status).toBe(404);
    expect((await list()).map((p) => p.key)).toEqual(["course-outline"]);
    await del(admin, b.data.id);
  });

  it("keeps keys unique: a second create and a rename onto a taken key answer 409, even when racing", async () => {
    const first = await create({ key: "chat-system", description: "Chat", prompt: "Be kind." });
    expect(first.status).toBe(201);
    const again = await create({ key: "chat-system", description: "Other", prompt: "Be rude." });
    expect(again.status).toBe(409);
    // The refusal whole, unparsed.
    expect(again.response.json()).toEqual({ message: PROMPT_KEY_TAKEN, errors: { key: PROMPT_KEY_TAKEN } });

    const other = (await create({ key: "spare", description: "Spare", prompt: "Spare." })).data;
    const clash = await update(other.id, { key: "chat-system" });
    expect(clash.status).toBe(409);
    expect(clash.error.errors?.key).toBe(PROMPT_KEY_TAKEN);
    // Saving a prompt under its own key is not a clash.
    expect((await update(other.id, { key: "spare", prompt: "Still spare." })).status).toBe(200);

    const racing = await Promise.all([1, 2, 3, 4].map((n) => create({ key: "raced", description: `Race ${n}`, prompt: "Go." })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await list()).filter((p) => p.key === "raced")).toHaveLength(1);
    expect((await list()).find((p) => p.key === "chat-system")?.prompt).toBe("Be kind.");
    for (const p of await list()) await del(admin, p.id);
  });
});

describe("rules", () => {
  it("requires key, description and prompt, with the form's messages", async () => {
    const valid = { key: "k", description: "d", prompt: "p" };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid, key: "" }, "key", "Key is required"],
      [{ ...valid, key: "   " }, "key", "Key is required"],
      [{ description: "d", prompt: "p" }, "key", "Key is required"],
      [{ ...valid, key: "Chat System" }, "key", "Key must be lowercase letters, numbers, hyphens or underscores"],
      [{ ...valid, key: "k".repeat(101) }, "key", "Key cannot exceed 100 characters"],
      [{ ...valid, description: "" }, "description", "Description is required"],
      [{ key: "k", prompt: "p" }, "description", "Description is required"],
      [{ ...valid, description: "d".repeat(501) }, "description", "Description cannot exceed 500 characters"],
      [{ ...valid, prompt: " \n " }, "prompt", "Prompt is required"],
      [{ key: "k", description: "d" }, "prompt", "Prompt is required"],
      [{ ...valid, prompt: 7 }, "prompt", "Prompt is required"],
      [{ ...valid, prompt: "p".repeat(20_001) }, "prompt", "Prompt cannot exceed 20000 characters"],
    ];
    for (const [body, field, message] of cases) {
      const res = await createRaw(body);
      expect({ body: JSON.stringify(body).slice(0, 60), status: res.status }).toEqual({
        body: JSON.stringify(body).slice(0, 60),
        status: 400,
      });
      expect(res.error.errors?.[field]).toBe(message);
    }
    const made = (await create(valid)).data;
    for (const [body, field, message] of [
      [{ key: "" }, "key", "Key is required"],
      [{ description: "  " }, "description", "Description is required"],
      [{ prompt: "" }, "prompt", "Prompt is required"],
    ] as const) {
      const res = await update(made.id, body);
      expect(res.status).toBe(400);
      expect(res.error.errors?.[field]).toBe(message);
    }
    expect((await list()).find((p) => p.id === made.id)).toMatchObject(valid);
    await del(admin, made.id);
  });

  it("answers 400 or 404 to junk ids and bodies, never 5xx", async () => {
    const patchX = requestFor(aiPromptsApi.update, { params: { id: 1 }, body: { prompt: "x" } });
    const remove = requestFor(aiPromptsApi.remove, { params: { id: 1 } });
    for (const id of ["0", "-1", "abc", "1.5", "99999999999"]) {
      expect({ id, status: (await withPathId(patchX, aiPromptsApi.update.path, id)).statusCode }).toEqual({ id, status: 400 });
      expect({ id, status: (await withPathId(remove, aiPromptsApi.remove.path, id)).statusCode }).toEqual({ id, status: 400 });
    }
    expect((await update(2147483647, { prompt: "x" })).status).toBe(404);
    // Bodies that are not a prompt, or not JSON at all: sent raw.
    for (const payload of ["null", "[]", '"text"', "{", '{"key":{"$gt":""},"description":"d","prompt":"p"}', '{"key":["a"]}']) {
      const request = requestFor(aiPromptsApi.create, { body: { key: "k", description: "d", prompt: "p" } });
      const res = await admin.request({ ...request, payload, headers: { "content-type": "application/json" } });
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
    }
    expect(await list()).toEqual([]);
  });
});

describe("what the product reads", () => {
  it("a chat reply uses the chat-system prompt, and the edited one as soon as it is saved; none once deleted", async () => {
    const made = await create({ key: "chat-system", description: "Every chat", prompt: "You are Captain Prompt." });
    const chat = await newChat(user);
    const reply = (content: string) => user.call(chatsApi.reply, { params: { id: chat.id }, body: { content } });
    const first = await reply("hi there");
    expect(textOf(parseEvents(first.response.body))).toBe("Echo: hi there");
    expect(systemSent()).toEqual(["You are Captain Prompt."]);

    await update(made.data.id, { prompt: "You are Admiral Edited." });
    await reply("again");
    expect(systemSent()).toEqual(["You are Admiral Edited."]);

    await del(admin, made.data.id);
    await reply("and once more");
    expect(systemSent()).toEqual([]);
  });
});
