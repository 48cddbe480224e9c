import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { cannotReadImagesMessage } from "../../src/shared/model-catalog.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CallInput } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { seedFile } from "../helpers/library-seed.js";
import { TINY_PNG } from "../helpers/multipart.js";
import { eventOf } from "../helpers/sse-reader.js";

let t: TestApp;
let openai: FakeProvider;
let mistral: FakeProvider;
let compatible: FakeProvider;
let claude: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
let userId: number;
let imageId: number;
const base64 = Buffer.from(TINY_PNG).toString("base64");

/** Free-tier models of a platform pointed at a stand-in. */
const models = (list: string[], extra: Record<string, unknown> = {}) => ({
  settings: { models: list, defaultModel: list[0], freeModels: list, ...extra },
});

type Turn = { role: string; content: unknown };
const lastUserContent = (fake: FakeProvider) => {
  const body = fake.requests.at(-1)?.body as { messages: Turn[] };
  return body.messages.filter((m) => m.role === "user").at(-1)?.content;
};

type ReplyBody = CallInput<typeof chatsApi.reply>["body"];
const reply = (chatId: number, body: ReplyBody) => user.call(chatsApi.reply, { params: { id: chatId }, body });
const messagesOf = async (chatId: number) => (await user.ok(chatsApi.messages, { params: { id: chatId } })).items;

async function ask(chatId: number, body: Partial<ReplyBody>) {
  const res = await reply(chatId, { content: "What is in this picture?", fileIds: [imageId], ...body });
  expect(res.status, res.response.body).toBe(200);
  return eventOf(parseEvents(res.response.body).at(-1), "done");
}

beforeAll(async () => {
  [openai, mistral, compatible] = await Promise.all([
    startOpenAiCompatibleFake(),
    startOpenAiCompatibleFake(),
    startOpenAiCompatibleFake(),
  ]);
  claude = await startAnthropicFake();
  t = await buildTestApp();
  ({ admin, user, userId } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", openai, models(["gpt-4o", "gpt-3.5-turbo"]));
  await pointPlatformAt(admin, "anthropic-claude", claude, models(["claude-sonnet-4-5"]));
  await pointPlatformAt(admin, "mistral", mistral, models(["pixtral-large-latest", "mistral-tiny"]));
  await pointPlatformAt(admin, "deepseek", compatible, models(["deepseek-chat"]));
  imageId = await seedFile(t.database.db, { userId, name: "cell.png", kind: "image", mimeType: "image/png", bytes: TINY_PNG });
});
afterAll(async () => {
  await t.close();
  await Promise.all([openai.close(), mistral.close(), compatible.close(), claude.close()]);
});

describe("images reach vision models in each wire format", () => {
  it("OpenAI: an image_url part with a data URL, before the text", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "gpt-4o" });
    const end = await ask(chat.id, {});
    expect(lastUserContent(openai)).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } },
      { type: "text", text: 'What is in this picture?\n\n<attached-file name="cell.png" />' },
    ]);
    expect(end.after?.shown[0]?.attachments).toEqual([
      { name: "cell.png", size: TINY_PNG.byteLength, fileId: imageId, type: "image/png", kind: "image", missing: false },
    ]);
  });

  it("Anthropic: an image block with base64 source", async () => {
    const chat = await newChat(user, { aiPlatform: "anthropic-claude", model: "claude-sonnet-4-5" });
    await ask(chat.id, {});
    expect(lastUserContent(claude)).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: base64 } },
      { type: "text", text: 'What is in this picture?\n\n<attached-file name="cell.png" />' },
    ]);
  });

  it("Mistral: an image_url part", async () => {
    const chat = await newChat(user, { aiPlatform: "mistral", model: "pixtral-large-latest" });
    await ask(chat.id, {});
    expect(lastUserContent(mistral)).toEqual([
      { type: "image_url", image_url: `data:image/png;base64,${base64}` },
      { type: "text", text: 'What is in this picture?\n\n<attached-file name="cell.png" />' },
    ]);
  });

  it("regenerate sends the answered message's image again", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "gpt-4o" });
    await ask(chat.id, {});
    const before = openai.requests.length;
    const res = await user.call(chatsApi.regenerate, { params: { id: chat.id }, body: {} });
    expect(res.status).toBe(200);
    expect(openai.requests.length).toBe(before + 1);
    expect(lastUserContent(openai)).toEqual(
      expect.arrayContaining([{ type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } }]),
    );
    // Regenerating with a model that cannot see it is refused the same way.
    const refused = await user.call(chatsApi.regenerate, {
      params: { id: chat.id },
      body: { platformSlug: "openai", model: "gpt-3.5-turbo" },
    });
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe(cannotReadImagesMessage("gpt-3.5-turbo", ["gpt-4o", "claude-sonnet-4-5", "pixtral-large-latest"]));
  });
});

describe("image sizes a reply sends (issue 30 review)", () => {
  it("refuses an image over 20 MB and images over 50 MB together, before anything is stored or asked", async () => {
    const { sql } = await import("drizzle-orm");
    const big = async (name: string, megabytes: number) => {
      const id = await seedFile(t.database.db, { userId, name, kind: "image", mimeType: "image/png", bytes: TINY_PNG });
      await t.database.db.execute(sql`update knowledge_files set byte_size = ${megabytes * 1024 * 1024} where id = ${id}`);
      return id;
    };
    const chat = await newChat(user, { aiPlatform: "openai", model: "gpt-4o" });
    const asked = openai.requests.length;
    const huge = await big("huge.png", 21);
    const one = await reply(chat.id, { content: "Look", fileIds: [huge] });
    expect(one.status).toBe(400);
    expect(one.error.message).toBe("huge.png is too large to send to a model: an image can be at most 20 MB.");
    const many = await Promise.all([big("a.png", 19), big("b.png", 19), big("c.png", 19)]);
    const together = await reply(chat.id, { content: "Look", fileIds: many });
    expect(together.status).toBe(400);
    expect(together.error.message).toBe("These images are too large to send together: at most 50 MB of images per message.");
    expect(await messagesOf(chat.id)).toEqual([]);
    expect(openai.requests.length).toBe(asked);
    // Two of them (38 MB) are fine.
    const two = await reply(chat.id, { content: "Look", fileIds: many.slice(0, 2) });
    expect(two.status, two.response.body).toBe(200);
  });
});

describe("a model that cannot read images", () => {
  it("is refused with 400 and the shared words, before anything is stored or asked", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "gpt-3.5-turbo" });
    const asked = openai.requests.length;
    const res = await reply(chat.id, { content: "Look", fileIds: [imageId] });
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(
      "GPT-3.5 Turbo cannot read images. Choose a model that can, such as GPT-4o, Claude Sonnet 4.5 or Pixtral Large.",
    );
    expect(res.error.message).toBe(cannotReadImagesMessage("gpt-3.5-turbo", ["gpt-4o", "claude-sonnet-4-5", "pixtral-large-latest"]));
    expect(await messagesOf(chat.id)).toEqual([]);
    expect(openai.requests.length).toBe(asked);

    // DeepSeek reads no images; an OpenAI-compatible server's model does once its admin marks it.
    const deepseek = await newChat(user, { aiPlatform: "deepseek", model: "deepseek-chat" });
    expect((await reply(deepseek.id, { content: "Look", fileIds: [imageId] })).status).toBe(400);
  });

  it("an OpenAI-compatible platform's vision models are the admin's list, shown to the pickers", async () => {
    const created = await admin.call(aiPlatformsApi.create, {
      body: {
        name: "Local",
        slug: "local",
        kind: "openai-compatible",
        baseUrl: compatible.url,
        apiKey: "sk-test-valid-key-123456",
        settings: {
          models: ["llava", "llama3"],
          freeModels: ["llava", "llama3"],
          visionModels: ["llava", "not-listed"],
          temperature: 0.7,
          maxTokens: 1024,
        },
      },
    });
    expect(created.status, created.response.body).toBe(201);
    expect(created.data.settings.visionModels).toEqual(["llava"]);
    const pickers = await user.ok(aiPlatformsApi.forChat, {});
    expect(pickers.find((p) => p.slug === "local")?.imageModels).toEqual(["llava"]);
    expect(pickers.find((p) => p.slug === "openai")?.imageModels).toEqual(["gpt-4o"]);

    const text = await newChat(user, { aiPlatform: "local", model: "llama3" });
    expect((await reply(text.id, { content: "Look", fileIds: [imageId] })).status).toBe(400);
    const vision = await newChat(user, { aiPlatform: "local", model: "llava" });
    const res = await reply(vision.id, { content: "Look", fileIds: [imageId] });
    expect(res.status).toBe(200);

    expect(lastUserContent(compatible)).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } },
      { type: "text", text: 'Look\n\n<attached-file name="cell.png" />' },
    ]);
  });
});
