// Decision 056: a scope covers what a request reaches, not only its route. A token without `files:read` reaches no file,
// collection or passage of its user's library by any chat route (attaching collections or files, a reply given them, the
// search_files tool, a citation, the passages stored on messages, a lesson source's surroundings); with it, it does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_MESSAGES, tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi, type StreamEvent } from "../../src/shared/contracts/chat.js";
import type { TokenScope } from "../../src/shared/contracts/endpoint.js";
import { collectionsApi, filesApi } from "../../src/shared/contracts/knowledge.js";
import { BUILTIN_TOOLS } from "../../src/shared/contracts/tools.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, type CallOptions, callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { seedCollection, seedFile } from "../helpers/library-seed.js";

let t: TestApp;
let fake: FakeProvider;
let owner: CookieClient;
let chatOnly: string;
let withFiles: string;
let collectionId: number;
let notesId: number;

const SECRET = "The heron vault opens with the word marmalade.";
const NOTES = "Meeting notes about the quarterly garden budget.";
const NO_SCOPE = TOKEN_MESSAGES.missingScope("files:read");

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const { admin } = await adminAndUser(t.app);
  await pointPlatformAt(admin, "openai", fake);
  const signed = await registerAndSignIn(t.app);
  owner = signed.client;
  const db = t.database.db;
  collectionId = await seedCollection(db, signed.user.id, "Vault");
  await seedFile(db, { userId: signed.user.id, name: "vault.md", collectionId, chunks: [{ content: SECRET }] });
  notesId = await seedFile(db, { userId: signed.user.id, name: "notes.md", chunks: [{ content: NOTES }] });
  chatOnly = await makeToken(["chat"]);
  withFiles = await makeToken(["chat", "files:read"]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function makeToken(scopes: TokenScope[]): Promise<string> {
  const made = await owner.call(tokensApi.create, { body: { name: scopes.join(" "), expiresInDays: 7, scopes } });
  expect(made.status, made.response.body).toBe(201);
  return made.data.token;
}

/** A request with this personal API token (no cookie). */
const bearer = (token: string): CallOptions => ({ headers: { authorization: `Bearer ${token}` } });

const refusedForScope = (answer: { status: number; response: { body: string }; error: { message: string } }) => {
  expect(answer.status, answer.response.body).toBe(403);
  expect(answer.error.message).toBe(NO_SCOPE);
};
const patchAs = (token: string, id: number, body: CallInput<typeof chatsApi.update>["body"]) =>
  callApp(t.app, chatsApi.update, { params: { id }, body }, bearer(token));
const replyAs = (token: string, id: number, body: { content: string; fileIds?: number[] }) =>
  callApp(t.app, chatsApi.reply, { params: { id }, body }, bearer(token));
const regenerateAs = (token: string, id: number) => callApp(t.app, chatsApi.regenerate, { params: { id }, body: {} }, bearer(token));
const editAs = (token: string, id: number, messageId: number, content: string) =>
  callApp(t.app, chatsApi.editMessage, { params: { id, messageId }, body: { content } }, bearer(token));
const citationAs = (token: string, id: number, messageId: number) =>
  callApp(t.app, chatsApi.citation, { params: { id, messageId, n: 1 } }, bearer(token));
const messagesAs = (token: string, id: number) => callApp(t.app, chatsApi.messages, { params: { id } }, bearer(token));

const doneOf = (events: StreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`no done event: ${JSON.stringify(last)}`);
  return last.assistantMessage;
};

/** A chat the owner made in the browser, its collection attached, with a reply that cited the collection's passage. */
async function browserChatWithCitation() {
  const chat = await newChat(owner);
  expect((await owner.call(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [collectionId] } })).status).toBe(200);
  const reply = await owner.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "Where is the heron vault word? [1]" } });
  expect(reply.status, reply.response.body).toBe(200);
  const cited = doneOf(parseEvents(reply.response.body));
  expect(cited.citations.map((c) => c.excerpt)).toEqual([SECRET]);
  return { chatId: chat.id, replyId: cited.id };
}

const messagesOf = async (chatId: number) => (await owner.ok(chatsApi.messages, { params: { id: chatId } })).items;

describe("a token without files:read", () => {
  it("cannot attach collections or the search_files tool to a chat", async () => {
    const chat = await newChat(owner);
    refusedForScope(await patchAs(chatOnly, chat.id, { collectionIds: [collectionId] }));
    refusedForScope(await patchAs(chatOnly, chat.id, { tools: [BUILTIN_TOOLS.searchFiles] }));
    // Nothing changed; other changes of the chat stay open to it.
    expect(await owner.ok(chatsApi.get, { params: { id: chat.id } })).toMatchObject({ collectionIds: [], tools: [] });
    expect((await patchAs(chatOnly, chat.id, { title: "Renamed" })).status).toBe(200);
    // With files:read, both are its to set.
    const allowed = await patchAs(withFiles, chat.id, { collectionIds: [collectionId], tools: [BUILTIN_TOOLS.searchFiles] });
    expect(allowed.status, allowed.response.body).toBe(200);
    expect(allowed.data).toMatchObject({ collectionIds: [collectionId], tools: [BUILTIN_TOOLS.searchFiles] });
  });

  it("cannot send library files, even another user's or a missing one, and stores nothing", async () => {
    const chat = await newChat(owner);
    const before = fake.requests.length;
    for (const fileIds of [[notesId], [999_999]]) {
      refusedForScope(await replyAs(chatOnly, chat.id, { content: "Summarise", fileIds }));
    }
    expect(await messagesOf(chat.id)).toEqual([]);
    expect(fake.requests.length).toBe(before);
    // With files:read the file goes to the model.
    const sent = await replyAs(withFiles, chat.id, { content: "Summarise", fileIds: [notesId] });
    expect(sent.status, sent.response.body).toBe(200);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(NOTES);
  });

  it("cannot get a reply, a regenerate or an edit in a chat whose replies are given the library", async () => {
    const { chatId } = await browserChatWithCitation();
    const [question] = await messagesOf(chatId);
    const before = fake.requests.length;
    refusedForScope(await replyAs(chatOnly, chatId, { content: "Again?" }));
    refusedForScope(await regenerateAs(chatOnly, chatId));
    refusedForScope(await editAs(chatOnly, chatId, question?.id ?? 0, "Where?"));
    expect(fake.requests.length).toBe(before);
    expect(await messagesOf(chatId)).toHaveLength(2);

    // Files an earlier message of the branch attached count as well (an edit keeps them; a regenerate reads them).
    const filed = await newChat(owner);
    expect(
      (await owner.call(chatsApi.reply, { params: { id: filed.id }, body: { content: "Read this", fileIds: [notesId] } })).status,
    ).toBe(200);
    const [asked] = await messagesOf(filed.id);
    refusedForScope(await regenerateAs(chatOnly, filed.id));
    refusedForScope(await editAs(chatOnly, filed.id, asked?.id ?? 0, "Read it"));
    refusedForScope(await replyAs(chatOnly, filed.id, { content: "And then?" }));
    expect(fake.requests.length).toBe(before + 1);

    // With files:read: answered, given the passage.
    const allowed = await replyAs(withFiles, chatId, { content: "Where is the heron vault word? [1]" });
    expect(allowed.status, allowed.response.body).toBe(200);
    expect(doneOf(parseEvents(allowed.response.body)).citations.map((c) => c.excerpt)).toEqual([SECRET]);
  });

  it("cannot open a citation, and reads messages without their passages", async () => {
    const { chatId, replyId } = await browserChatWithCitation();
    refusedForScope(await citationAs(chatOnly, chatId, replyId));
    const listed = await messagesAs(chatOnly, chatId);
    expect(listed.status).toBe(200);
    expect(listed.response.body).not.toContain(SECRET);
    expect(listed.data.items.map((m) => m.citations)).toEqual([[], []]);

    const opened = await citationAs(withFiles, chatId, replyId);
    expect(opened.status, opened.response.body).toBe(200);
    expect(opened.data).toMatchObject({ n: 1, fileName: "vault.md", excerpt: SECRET });
    const full = (await messagesAs(withFiles, chatId)).data.items;
    expect(full.at(-1)?.citations.map((c) => c.excerpt)).toEqual([SECRET]);
    // Another user's token, even with files:read, gets nothing of it.
    const stranger = await registerAndSignIn(t.app);
    const theirs = await stranger.client.ok(tokensApi.create, { body: { name: "x", expiresInDays: 7, scopes: ["chat", "files:read"] } });
    expect((await citationAs(theirs.token, chatId, replyId)).status).toBe(404);
  });

  it("replies without the search_files tool, and sees a browser reply's search results hidden", async () => {
    const chat = await newChat(owner);
    const params = { id: chat.id };
    expect((await owner.call(chatsApi.update, { params, body: { tools: [BUILTIN_TOOLS.searchFiles] } })).status).toBe(200);
    // The owner's own reply searched the library.
    const searched = await owner.call(chatsApi.reply, { params, body: { content: '#tool=search_files{"query":"heron vault"}' } });
    expect(searched.status, searched.response.body).toBe(200);
    const call = doneOf(parseEvents(searched.response.body)).toolCalls[0];
    expect(call?.sources.map((s) => s.excerpt)).toEqual([SECRET]);

    // The token's reply is not offered the tool, so the model cannot search the library for it.
    const asked = await replyAs(chatOnly, chat.id, { content: '#tool=search_files{"query":"heron vault"}' });
    expect(asked.status, asked.response.body).toBe(200);
    const offered = fake.requests.at(-1)?.body as { tools?: { function: { name: string } }[] };
    expect((offered.tools ?? []).map((tool) => tool.function.name)).not.toContain("search_files");
    expect(doneOf(parseEvents(asked.response.body)).toolCalls).toEqual([]);

    // The stored search call shows its result hidden, with no passages; the token with files:read sees them.
    const listed = (await messagesAs(chatOnly, chat.id)).data.items;
    const hidden = listed.flatMap((m) => m.toolCalls);
    expect(hidden.map((c) => [c.tool, c.result, c.sources])).toEqual([[BUILTIN_TOOLS.searchFiles, TOKEN_MESSAGES.passagesHidden, []]]);
    const shown = (await messagesAs(withFiles, chat.id)).data.items.flatMap((m) => m.toolCalls);
    expect(shown[0]?.result).toContain(SECRET);
    // With files:read the token's reply is offered the tool again.
    const again = await replyAs(withFiles, chat.id, { content: '#tool=search_files{"query":"heron vault"}' });
    expect(again.status, again.response.body).toBe(200);
    expect(doneOf(parseEvents(again.response.body)).toolCalls[0]?.sources.map((s) => s.excerpt)).toEqual([SECRET]);
  });

  it("cannot read the library's own routes; files:read opens their reads only", async () => {
    const params = { id: notesId };
    for (const [url, read] of [
      ["filesApi.list", (token: string) => callApp(t.app, filesApi.list, {}, bearer(token))],
      ["filesApi.get", (token: string) => callApp(t.app, filesApi.get, { params }, bearer(token))],
      ["filesApi.content", (token: string) => callApp(t.app, filesApi.content, { params }, bearer(token))],
      ["collectionsApi.list", (token: string) => callApp(t.app, collectionsApi.list, {}, bearer(token))],
    ] as const) {
      refusedForScope(await read(chatOnly));
      expect((await read(withFiles)).status, url).toBe(200);
    }
    expect((await callApp(t.app, collectionsApi.list, {}, bearer(withFiles))).data).toEqual([
      expect.objectContaining({ id: collectionId }),
    ]);
    // Writes stay closed to every token.
    const write = await callApp(t.app, collectionsApi.update, { params: { id: collectionId }, body: { name: "Mine" } }, bearer(withFiles));
    expect(write.status).toBe(403);
    expect(write.error.message).toBe(TOKEN_MESSAGES.notForThis);
  });
});
