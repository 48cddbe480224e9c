import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeFiles } from "../../src/server/db/schema/index.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { CHAT_EXPORT_FORMAT, EXPORT_NOTE } from "../../src/shared/contracts/chat-transfer.js";
import { personalitiesApi } from "../../src/shared/contracts/personalities.js";
import { userApi } from "../../src/shared/contracts/user.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { seedCollection, seedFile } from "../helpers/library-seed.js";
import { eventOf } from "../helpers/sse-reader.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
let userId: number;
let other: CookieClient;
let otherId: number;

type Body = { messages: { role: string; content: unknown }[] };
/** The system text of the provider's last request (the sources block rides on it). */
const lastSystem = () => {
  const body = fake.requests.at(-1)?.body as Body;
  return body.messages
    .filter((m) => m.role === "system")
    .map((m) => String(m.content))
    .join("\n");
};

/** A tag without digits (the question's [1] and [7] would match digits). */
const fillerTag = (i: number) => `p${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`;

/** Forty pages of filler, page 31 answering the question about "zyxword". */
const bookPages = () =>
  Array.from({ length: 40 }, (_, i) => ({
    page: i + 1,
    headingPath: `Chapter ${Math.floor(i / 10) + 1}`,
    content:
      i + 1 === 31
        ? "The zyxword is the powerhouse of the cell, turning sugar into energy for the organism."
        : `Lorem ipsum dolor sit amet filler ${fillerTag(i)} consectetur adipiscing elit.`,
  }));

type ReplyBody = CallInput<typeof chatsApi.reply>["body"];

async function send(client: CookieClient, chatId: number, body: ReplyBody) {
  const res = await client.call(chatsApi.reply, { params: { id: chatId }, body });
  return res;
}

async function done(client: CookieClient, chatId: number, body: ReplyBody) {
  const res = await send(client, chatId, body);
  expect(res.status, res.response.body).toBe(200);
  const events = parseEvents(res.response.body);
  const start = eventOf(events[0], "start");
  return { start, done: eventOf(events.at(-1), "done") };
}

const messagesOf = async (client: CookieClient, chatId: number) => (await client.ok(chatsApi.messages, { params: { id: chatId } })).items;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, user, userId } = await adminAndUser(t.app));
  const second = await registerAndSignIn(t.app);
  other = second.client;
  otherId = second.user.id;
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe("files in a reply", () => {
  it("gives a small document whole, numbered as a source, and stores the attachment on the user's message", async () => {
    const fileId = await seedFile(t.database.db, {
      userId,
      name: "notes.md",
      chunks: [{ content: "# Tides\nThe moon pulls the oceans." }, { content: "Spring tides come at full moon." }],
    });
    const chat = await newChat(user);
    const { start, done: end } = await done(user, chat.id, { content: "Summarise my notes", fileIds: [fileId] });
    const system = lastSystem();
    expect(system).toContain("cite it inline by its number");
    expect(system).toContain("[1] notes.md\n# Tides\nThe moon pulls the oceans.\n\nSpring tides come at full moon.");
    const attachment = { name: "notes.md", fileId, type: "text/markdown", kind: "markdown", missing: false };
    expect(start.userMessage?.attachments).toEqual([expect.objectContaining(attachment)]);
    expect(end.after?.shown[0]?.attachments).toEqual([expect.objectContaining(attachment)]);
    const stored = await messagesOf(user, chat.id);
    expect(stored[0]?.attachments).toEqual([expect.objectContaining(attachment)]);
    // The user's text reaches the model naming the file, never a stray "undefined".
    const body = fake.requests.at(-1)?.body as Body;
    expect(String(body.messages.at(-1)?.content)).toBe('Summarise my notes\n\n<attached-file name="notes.md" />');
  });

  it("searches a large document with the question: the provider gets page 31's passage, the reply keeps only real citations", async () => {
    const fileId = await seedFile(t.database.db, {
      userId,
      name: "biology.pdf",
      kind: "pdf",
      mimeType: "application/pdf",
      tokens: 50_000,
      chunks: bookPages(),
    });
    const chat = await newChat(user);
    // The stand-in echoes the question, so the reply says [1] (a passage it was given) and [7] (invented).
    const { done: end } = await done(user, chat.id, { content: "Where is zyxword explained? [1] [7]", fileIds: [fileId] });
    const system = lastSystem();
    expect(system).toContain("[1] biology.pdf, page 31\nThe zyxword is the powerhouse of the cell");
    expect(system).not.toContain("filler");
    expect(system).not.toContain("\n[2] ");
    const citation = {
      n: 1,
      fileId,
      fileName: "biology.pdf",
      page: 31,
      excerpt: "The zyxword is the powerhouse of the cell, turning sugar into energy for the organism.",
    };
    expect(end.assistantMessage.citations).toEqual([citation]);
    const stored = await messagesOf(user, chat.id);
    expect(stored.at(-1)?.citations).toEqual([citation]);

    // The side panel's read: the passage with its neighbours.
    const replyId = end.assistantMessage.id;
    const read = await user.call(chatsApi.citation, { params: { id: chat.id, messageId: replyId, n: 1 } });
    expect(read.status).toBe(200);
    expect(read.data).toEqual({
      ...citation,
      passage: citation.excerpt,
      headingPath: "Chapter 4",
      before: `Lorem ipsum dolor sit amet filler ${fillerTag(29)} consectetur adipiscing elit.`,
      beforePage: 30,
      after: `Lorem ipsum dolor sit amet filler ${fillerTag(31)} consectetur adipiscing elit.`,
      afterPage: 32,
    });
    // An invented number, another user, a signed-out caller, the user's message: none of them reads it.
    expect((await user.call(chatsApi.citation, { params: { id: chat.id, messageId: replyId, n: 7 } })).status).toBe(404);
    expect((await other.call(chatsApi.citation, { params: { id: chat.id, messageId: replyId, n: 1 } })).status).toBe(404);
    expect((await callApp(t.app, chatsApi.citation, { params: { id: chat.id, messageId: replyId, n: 1 } })).status).toBe(401);
    expect((await user.call(chatsApi.citation, { params: { id: chat.id, messageId: replyId - 1, n: 1 } })).status).toBe(404);

    // A follow-up in the same chat still searches the file attached earlier on the branch.
    await done(user, chat.id, { content: "And zyxword again?" });
    expect(lastSystem()).toContain("page 31\nThe zyxword");
  });

  it("refuses another user's file (404), a file still being read (409) and a failed one (400), storing nothing", async () => {
    const theirs = await seedFile(t.database.db, { userId: otherId, name: "theirs.md", chunks: [{ content: "secret" }] });
    const reading = await seedFile(t.database.db, { userId, name: "draft.pdf", status: "processing" });
    const failed = await seedFile(t.database.db, { userId, name: "broken.pdf", status: "failed", error: "The PDF is damaged" });
    const chat = await newChat(user);
    const requests = fake.requests.length;

    const notYours = await send(user, chat.id, { content: "Read it", fileIds: [theirs] });
    expect(notYours.status).toBe(404);
    expect(notYours.error.message).toBe("File not found");
    const gone = await send(user, chat.id, { content: "Read it", fileIds: [2_000_000] });
    expect(gone.status).toBe(404);
    const busy = await send(user, chat.id, { content: "Read it", fileIds: [reading] });
    expect(busy.status).toBe(409);
    expect(busy.error.message).toBe("draft.pdf is still being read. Send again when it is ready.");
    const broken = await send(user, chat.id, { content: "Read it", fileIds: [failed] });
    expect(broken.status).toBe(400);
    expect(broken.error.message).toContain("broken.pdf could not be read: The PDF is damaged");
    const tooMany = await send(user, chat.id, { content: "Read it", fileIds: Array.from({ length: 11 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);

    expect(await messagesOf(user, chat.id)).toEqual([]);
    // Refused before the provider was asked.
    expect(fake.requests.length).toBe(requests);
  });

  it("regenerate and edit keep the message's files; an edit with fileIds replaces them", async () => {
    const first = await seedFile(t.database.db, { userId, name: "first.md", chunks: [{ content: "Alpha facts." }] });
    const second = await seedFile(t.database.db, { userId, name: "second.md", chunks: [{ content: "Beta facts." }] });
    const chat = await newChat(user);
    const { start } = await done(user, chat.id, { content: "Use the file", fileIds: [first] });
    const userMessage = start.userMessage;
    if (!userMessage) throw new Error("the start names no user message");

    const regenerated = await user.call(chatsApi.regenerate, { params: { id: chat.id }, body: {} });
    expect(regenerated.status).toBe(200);
    expect(lastSystem()).toContain("[1] first.md\nAlpha facts.");

    const kept = await user.call(chatsApi.editMessage, {
      params: { id: chat.id, messageId: userMessage.id },
      body: { content: "Use the file, please" },
    });
    expect(kept.status).toBe(200);
    expect(lastSystem()).toContain("[1] first.md\nAlpha facts.");
    const keptStart = eventOf(parseEvents(kept.response.body)[0], "start");
    expect(keptStart.userMessage?.attachments.map((a) => a.fileId)).toEqual([first]);

    const replaced = await user.call(chatsApi.editMessage, {
      params: { id: chat.id, messageId: userMessage.id },
      body: { content: "The other one", fileIds: [second] },
    });
    expect(replaced.status).toBe(200);
    expect(lastSystem()).toContain("[1] second.md\nBeta facts.");
    expect(lastSystem()).not.toContain("Alpha");
    const replacedStart = eventOf(parseEvents(replaced.response.body)[0], "start");
    expect(replacedStart.userMessage?.attachments.map((a) => a.fileId)).toEqual([second]);

    // Someone else's file on an edit: 404.
    const theirs = await seedFile(t.database.db, { userId: otherId, name: "x.md", chunks: [{ content: "x" }] });
    const refused = await user.call(chatsApi.editMessage, {
      params: { id: chat.id, messageId: userMessage.id },
      body: { content: "x", fileIds: [theirs] },
    });
    expect(refused.status).toBe(404);
  });

  it("shows a deleted file as a missing placeholder", async () => {
    const fileId = await seedFile(t.database.db, { userId, name: "gone.md", chunks: [{ content: "Soon gone." }] });
    const chat = await newChat(user);
    await done(user, chat.id, { content: "Read this", fileIds: [fileId] });
    await t.database.db.delete(knowledgeFiles).where(eq(knowledgeFiles.id, fileId));
    const [question] = await messagesOf(user, chat.id);
    expect(question?.attachments).toEqual([expect.objectContaining({ name: "gone.md", fileId, missing: true })]);
    // The next reply goes on without it.
    await done(user, chat.id, { content: "Still there?" });
    expect(lastSystem()).not.toContain("Soon gone");
  });

  it("exports attachments without their bytes and says so; the import brings them back as placeholders", async () => {
    const fileId = await seedFile(t.database.db, { userId, name: "report.md", chunks: [{ content: "Quarterly numbers." }] });
    const chat = await newChat(user);
    await done(user, chat.id, { content: "Export me", fileIds: [fileId] });
    // The export's bytes and the import's JSON body (its upload endpoint also takes a JSON body) are sent raw.
    const res = await user.get(`/api/chats/${chat.id}/export?format=json`);
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json() as { format: string; note: string; chats: { messages: { attachments: Record<string, unknown>[] }[] }[] };
    expect(file.format).toBe(CHAT_EXPORT_FORMAT);
    expect(file.note).toBe(EXPORT_NOTE);
    const [listed] = file.chats[0]?.messages[0]?.attachments ?? [];
    expect(listed).toEqual({ name: "report.md", size: 18, type: "text/markdown", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(res.body).not.toContain("Quarterly numbers.");

    // Imported (by another account, whose library has no such file): a placeholder with the name and size kept.
    const imported = await other.post("/api/chats/import", file);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().imported).toBe(1);
    const [theirs] = (await other.ok(chatsApi.list, {})).items;
    const [question] = await messagesOf(other, theirs?.id ?? 0);
    expect(question?.attachments).toEqual([
      { name: "report.md", size: 18, fileId: null, type: "text/markdown", kind: null, missing: true },
    ]);
    // Its reply still works, naming the file to the model.
    await done(other, theirs?.id ?? 0, { content: "What was in it?" });
  });
});

describe("collections", () => {
  it("a chat's collection is searched on every reply, scoped to its owner; another's collection is a 404", async () => {
    const mine = await seedCollection(t.database.db, userId, "Handbook");
    const theirs = await seedCollection(t.database.db, otherId, "Their handbook");
    await seedFile(t.database.db, {
      userId,
      name: "handbook.md",
      collectionId: mine,
      chunks: [{ content: "Holidays: quorble days are paid." }],
    });
    // The other user's file shares the words: never given to this user.
    await seedFile(t.database.db, {
      userId: otherId,
      name: "their.md",
      collectionId: theirs,
      chunks: [{ content: "Quorble days: secret of theirs." }],
    });

    const chat = await newChat(user);
    const refused = await user.call(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [theirs] } });
    expect(refused.status).toBe(404);
    expect(refused.error.message).toBe("Collection not found");
    const patched = await user.call(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [mine] } });
    expect(patched.status).toBe(200);
    expect(patched.data.collectionIds).toEqual([mine]);
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).collectionIds).toEqual([mine]);
    // Another user cannot attach anything to this chat.
    expect((await other.call(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [theirs] } })).status).toBe(404);

    await done(user, chat.id, { content: "How many quorble days?" });
    expect(lastSystem()).toContain("[1] handbook.md\nHolidays: quorble days are paid.");
    expect(lastSystem()).not.toContain("secret of theirs");
    const { done: end } = await done(user, chat.id, { content: "Tell me about quorble again" });
    expect(lastSystem()).toContain("Holidays: quorble days are paid.");
    expect(end.after?.chat.collectionIds).toEqual([mine]);

    // Listed chats carry their collections; detaching stops the search.
    const list = (await user.ok(chatsApi.list, {})).items;
    expect(list.find((c) => c.id === chat.id)?.collectionIds).toEqual([mine]);
    expect((await user.ok(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [] } })).collectionIds).toEqual([]);
    await done(user, chat.id, { content: "quorble?" });
    expect(lastSystem()).not.toContain("Holidays");
  });

  it("a personality's collections are read back and searched in its chats; another's collection is a 404", async () => {
    // The admin passes Early Access (personalities).
    const adminId = (await admin.ok(userApi.me, {})).id;
    const mine = await seedCollection(t.database.db, adminId, "Tutor notes");
    const theirs = await seedCollection(t.database.db, otherId, "Not yours");
    await seedFile(t.database.db, {
      userId: adminId,
      name: "tutor.md",
      collectionId: mine,
      chunks: [{ content: "Flibbert is spelled with two b." }],
    });
    const body = { name: "Tutor", instructions: "Help.", collectionIds: [theirs] };
    expect((await admin.call(personalitiesApi.create, { body })).status).toBe(404);
    const created = await admin.call(personalitiesApi.create, { body: { ...body, collectionIds: [mine] } });
    expect(created.status).toBe(201);
    expect(created.data.collectionIds).toEqual([mine]);
    const id = created.data.id;
    expect((await admin.ok(personalitiesApi.get, { params: { id } })).collectionIds).toEqual([mine]);
    expect((await admin.call(personalitiesApi.update, { params: { id }, body: { collectionIds: [theirs] } })).status).toBe(404);

    const chat = await newChat(admin, { personalityId: id });
    await done(admin, chat.id, { content: "How is flibbert spelled?" });
    expect(lastSystem()).toContain("Flibbert is spelled with two b.");
    expect((await admin.ok(personalitiesApi.update, { params: { id }, body: { collectionIds: [] } })).collectionIds).toEqual([]);
  });
});
