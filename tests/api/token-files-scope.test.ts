// Decision 056: a scope covers what a request reaches, not only its route. A token without `files:read` reaches no file,
// collection or passage of its user's library by any chat route (attaching collections or files, a reply given them, the
// search_files tool, a citation, the passages stored on messages, a lesson source's surroundings); with it, it does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_MESSAGES } from "../../src/shared/contracts/api-tokens.js";
import type { Message, StreamEvent } from "../../src/shared/contracts/chat.js";
import { BUILTIN_TOOLS } from "../../src/shared/contracts/tools.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
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

async function makeToken(scopes: string[]): Promise<string> {
  const made = await owner.post("/api/tokens", { name: scopes.join(" "), expiresInDays: 7, scopes });
  expect(made.statusCode, made.body).toBe(201);
  return (made.json() as { token: string }).token;
}

const bearer = (token: string, method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

const refusedForScope = (answer: { statusCode: number; body: string }) => {
  expect(answer.statusCode, answer.body).toBe(403);
  expect(JSON.parse(answer.body).message).toBe(NO_SCOPE);
};

const doneOf = (events: StreamEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`no done event: ${JSON.stringify(last)}`);
  return last.assistantMessage;
};

/** A chat the owner made in the browser, its collection attached, with a reply that cited the collection's passage. */
async function browserChatWithCitation() {
  const chat = await newChat(owner);
  expect((await owner.patch(`/api/chats/${chat.id}`, { collectionIds: [collectionId] })).statusCode).toBe(200);
  const reply = await owner.post(`/api/chats/${chat.id}/reply`, { content: "Where is the heron vault word? [1]" });
  expect(reply.statusCode, reply.body).toBe(200);
  const cited = doneOf(parseEvents(reply.body));
  expect(cited.citations.map((c) => c.excerpt)).toEqual([SECRET]);
  return { chatId: chat.id, replyId: cited.id };
}

const messagesOf = async (chatId: number) => (await owner.get(`/api/chats/${chatId}/messages`)).json() as Message[];

describe("a token without files:read", () => {
  it("cannot attach collections or the search_files tool to a chat", async () => {
    const chat = await newChat(owner);
    refusedForScope(await bearer(chatOnly, "PATCH", `/api/chats/${chat.id}`, { collectionIds: [collectionId] }));
    refusedForScope(await bearer(chatOnly, "PATCH", `/api/chats/${chat.id}`, { tools: [BUILTIN_TOOLS.searchFiles] }));
    // Nothing changed; other changes of the chat stay open to it.
    expect((await owner.get(`/api/chats/${chat.id}`)).json()).toMatchObject({ collectionIds: [], tools: [] });
    expect((await bearer(chatOnly, "PATCH", `/api/chats/${chat.id}`, { title: "Renamed" })).statusCode).toBe(200);
    // With files:read, both are its to set.
    const allowed = await bearer(withFiles, "PATCH", `/api/chats/${chat.id}`, {
      collectionIds: [collectionId],
      tools: [BUILTIN_TOOLS.searchFiles],
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json()).toMatchObject({ collectionIds: [collectionId], tools: [BUILTIN_TOOLS.searchFiles] });
  });

  it("cannot send library files, even another user's or a missing one, and stores nothing", async () => {
    const chat = await newChat(owner);
    const before = fake.requests.length;
    for (const fileIds of [[notesId], [999_999]]) {
      refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${chat.id}/reply`, { content: "Summarise", fileIds }));
    }
    expect(await messagesOf(chat.id)).toEqual([]);
    expect(fake.requests.length).toBe(before);
    // With files:read the file goes to the model.
    const sent = await bearer(withFiles, "POST", `/api/chats/${chat.id}/reply`, { content: "Summarise", fileIds: [notesId] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(NOTES);
  });

  it("cannot get a reply, a regenerate or an edit in a chat whose replies are given the library", async () => {
    const { chatId } = await browserChatWithCitation();
    const [question] = await messagesOf(chatId);
    const before = fake.requests.length;
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${chatId}/reply`, { content: "Again?" }));
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${chatId}/regenerate`, {}));
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${chatId}/messages/${question?.id}/edit`, { content: "Where?" }));
    expect(fake.requests.length).toBe(before);
    expect(await messagesOf(chatId)).toHaveLength(2);

    // Files an earlier message of the branch attached count as well (an edit keeps them; a regenerate reads them).
    const filed = await newChat(owner);
    expect((await owner.post(`/api/chats/${filed.id}/reply`, { content: "Read this", fileIds: [notesId] })).statusCode).toBe(200);
    const [asked] = await messagesOf(filed.id);
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${filed.id}/regenerate`, {}));
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${filed.id}/messages/${asked?.id}/edit`, { content: "Read it" }));
    refusedForScope(await bearer(chatOnly, "POST", `/api/chats/${filed.id}/reply`, { content: "And then?" }));
    expect(fake.requests.length).toBe(before + 1);

    // With files:read: answered, given the passage.
    const allowed = await bearer(withFiles, "POST", `/api/chats/${chatId}/reply`, { content: "Where is the heron vault word? [1]" });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(doneOf(parseEvents(allowed.body)).citations.map((c) => c.excerpt)).toEqual([SECRET]);
  });

  it("cannot open a citation, and reads messages without their passages", async () => {
    const { chatId, replyId } = await browserChatWithCitation();
    refusedForScope(await bearer(chatOnly, "GET", `/api/chats/${chatId}/messages/${replyId}/citations/1`));
    const listed = await bearer(chatOnly, "GET", `/api/chats/${chatId}/messages`);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(SECRET);
    expect((listed.json() as Message[]).map((m) => m.citations)).toEqual([[], []]);

    const opened = await bearer(withFiles, "GET", `/api/chats/${chatId}/messages/${replyId}/citations/1`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ n: 1, fileName: "vault.md", excerpt: SECRET });
    const full = (await bearer(withFiles, "GET", `/api/chats/${chatId}/messages`)).json() as Message[];
    expect(full.at(-1)?.citations.map((c) => c.excerpt)).toEqual([SECRET]);
    // Another user's token, even with files:read, gets nothing of it.
    const stranger = await registerAndSignIn(t.app);
    const theirs = await stranger.client.post("/api/tokens", { name: "x", expiresInDays: 7, scopes: ["chat", "files:read"] });
    const strangerToken = (theirs.json() as { token: string }).token;
    expect((await bearer(strangerToken, "GET", `/api/chats/${chatId}/messages/${replyId}/citations/1`)).statusCode).toBe(404);
  });

  it("replies without the search_files tool, and sees a browser reply's search results hidden", async () => {
    const chat = await newChat(owner);
    expect((await owner.patch(`/api/chats/${chat.id}`, { tools: [BUILTIN_TOOLS.searchFiles] })).statusCode).toBe(200);
    // The owner's own reply searched the library.
    const searched = await owner.post(`/api/chats/${chat.id}/reply`, { content: '#tool=search_files{"query":"heron vault"}' });
    expect(searched.statusCode, searched.body).toBe(200);
    const call = doneOf(parseEvents(searched.body)).toolCalls[0];
    expect(call?.sources.map((s) => s.excerpt)).toEqual([SECRET]);

    // The token's reply is not offered the tool, so the model cannot search the library for it.
    const asked = await bearer(chatOnly, "POST", `/api/chats/${chat.id}/reply`, { content: '#tool=search_files{"query":"heron vault"}' });
    expect(asked.statusCode, asked.body).toBe(200);
    const offered = fake.requests.at(-1)?.body as { tools?: { function: { name: string } }[] };
    expect((offered.tools ?? []).map((tool) => tool.function.name)).not.toContain("search_files");
    expect(doneOf(parseEvents(asked.body)).toolCalls).toEqual([]);

    // The stored search call shows its result hidden, with no passages; the token with files:read sees them.
    const listed = (await bearer(chatOnly, "GET", `/api/chats/${chat.id}/messages`)).json() as Message[];
    const hidden = listed.flatMap((m) => m.toolCalls);
    expect(hidden.map((c) => [c.tool, c.result, c.sources])).toEqual([[BUILTIN_TOOLS.searchFiles, TOKEN_MESSAGES.passagesHidden, []]]);
    const shown = ((await bearer(withFiles, "GET", `/api/chats/${chat.id}/messages`)).json() as Message[]).flatMap((m) => m.toolCalls);
    expect(shown[0]?.result).toContain(SECRET);
    // With files:read the token's reply is offered the tool again.
    const again = await bearer(withFiles, "POST", `/api/chats/${chat.id}/reply`, { content: '#tool=search_files{"query":"heron vault"}' });
    expect(again.statusCode, again.body).toBe(200);
    expect(doneOf(parseEvents(again.body)).toolCalls[0]?.sources.map((s) => s.excerpt)).toEqual([SECRET]);
  });

  it("cannot read the library's own routes; files:read opens their reads only", async () => {
    for (const url of ["/api/files", `/api/files/${notesId}`, `/api/files/${notesId}/content`, "/api/collections"]) {
      refusedForScope(await bearer(chatOnly, "GET", url));
      expect((await bearer(withFiles, "GET", url)).statusCode, url).toBe(200);
    }
    expect((await bearer(withFiles, "GET", "/api/collections")).json()).toEqual([expect.objectContaining({ id: collectionId })]);
    // Writes stay closed to every token.
    const write = await bearer(withFiles, "PATCH", `/api/collections/${collectionId}`, { name: "Mine" });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe(TOKEN_MESSAGES.notForThis);
  });
});
