// Edit and branch (issue 16): messages form a tree; an edit or a regenerate adds a sibling and keeps the earlier
// version as a branch; the chat shows one branch (GET messages, resume, the AI's history) and switches between them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chatsApi,
  type EditMessageBody,
  type ShownMessage,
  type StreamEvent,
  type SwitchBranchBody,
} from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, type CallOptions, callApp, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";
import { jsonPost, readEvents } from "../helpers/sse-reader.js";

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
let other: CookieClient;
let base: string;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const both = await adminAndUser(t.app);
  user = both.user;
  other = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(both.admin, "openai", fake);
  base = await t.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type MessagesQuery = CallInput<typeof chatsApi.messages>["query"];

const page = async (chatId: number, query: MessagesQuery = {}) => {
  const res = await user.call(chatsApi.messages, { params: { id: chatId }, query });
  expect(res.status).toBe(200);
  return res;
};
const shown = async (chatId: number, query: MessagesQuery = {}) => (await page(chatId, query)).data.items;
const contents = (list: ShownMessage[]) => list.map((m) => m.content);
const reply = (chatId: number, content: string) => user.call(chatsApi.reply, { params: { id: chatId }, body: { content } });
const send = async (chatId: number, content: string) => {
  const res = await reply(chatId, content);
  expect(res.status).toBe(200);
  return parseEvents(res.response.body);
};
const regenerate = (chatId: number) => user.call(chatsApi.regenerate, { params: { id: chatId }, body: {} });
const edit = (client: CookieClient, chatId: number, messageId: number, body: EditMessageBody) =>
  client.call(chatsApi.editMessage, { params: { id: chatId, messageId }, body });
const switchTo = (client: CookieClient, chatId: number, body: SwitchBranchBody, options?: CallOptions) =>
  client.call(chatsApi.switchBranch, { params: { id: chatId }, body }, options);
/** A switch's answer, unparsed (compared whole). */
const switched = async (client: CookieClient, chatId: number, body: SwitchBranchBody) =>
  (await switchTo(client, chatId, body)).response.json();
const startOf = (events: StreamEvent[]) => {
  const start = events[0];
  if (start?.type !== "start") throw new Error(`no start event: ${JSON.stringify(events[0])}`);
  return start;
};
/** The user texts the AI was sent in its last request. */
const lastHistory = () => {
  const body = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
  return body.messages.filter((m) => m.role !== "system").map((m) => `${m.role}:${String(m.content)}`);
};

/** A chat of two exchanges: q1, a1, q2, a2. */
async function twoExchanges() {
  const chat = await newChat(user);
  await send(chat.id, "first question");
  await send(chat.id, "second question");
  const list = await shown(chat.id);
  const [q1, a1, q2, a2] = list;
  if (!q1 || !a1 || !q2 || !a2) throw new Error("expected four messages");
  return { chat, q1, a1, q2, a2 };
}

describe("edit", () => {
  it("adds a sibling with the new text, answers it like a send, and keeps the earlier exchange as a branch", async () => {
    const { chat, q1, a1, q2, a2 } = await twoExchanges();
    expect([q1.parentId, a1.parentId, q2.parentId, a2.parentId]).toEqual([null, q1.id, a1.id, q2.id]);
    expect(q2.branch).toEqual({ index: 1, count: 1, siblingIds: [q2.id] });

    const res = await edit(user, chat.id, q2.id, { content: "second question, edited" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    const events = parseEvents(res.response.body);
    const start = startOf(events);
    expect(start.userMessage).toMatchObject({ role: "user", content: "second question, edited", parentId: a1.id });
    expect(start.assistantMessage.parentId).toBe(start.userMessage?.id);
    expect(textOf(events)).toBe("Echo: second question, edited");
    expect(events.at(-1)?.type).toBe("done");

    const after = await shown(chat.id);
    expect(contents(after)).toEqual(["first question", "Echo: first question", "second question, edited", "Echo: second question, edited"]);
    const edited = after[2];
    expect(edited?.branch).toEqual({ index: 2, count: 2, siblingIds: [q2.id, start.userMessage?.id] });
    expect(after[3]?.branch).toMatchObject({ index: 1, count: 1 });
    expect(after[0]?.branch).toMatchObject({ index: 1, count: 1 });

    // The earlier exchange is still there, one switch away.
    expect(await switched(user, chat.id, { messageId: q2.id })).toEqual({ leafId: a2.id });
    expect(contents(await shown(chat.id))).toEqual(["first question", "Echo: first question", "second question", "Echo: second question"]);
  });

  it("sends the AI the branch only: the edited message's ancestors and the new text, not the earlier version", async () => {
    const { chat, q2 } = await twoExchanges();
    await edit(user, chat.id, q2.id, { content: "another take" });
    expect(lastHistory()).toEqual(["user:first question", "assistant:Echo: first question", "user:another take"]);
    // A send on the new branch sees that branch only, too.
    await send(chat.id, "and then?");
    expect(lastHistory()).toEqual([
      "user:first question",
      "assistant:Echo: first question",
      "user:another take",
      "assistant:Echo: another take",
      "user:and then?",
    ]);
    // Back on the earlier branch, a send continues it (and its history is that branch).
    await switchTo(user, chat.id, { messageId: q2.id });
    await send(chat.id, "continue the old one");
    expect(lastHistory()).toEqual([
      "user:first question",
      "assistant:Echo: first question",
      "user:second question",
      "assistant:Echo: second question",
      "user:continue the old one",
    ]);
  });

  it("edits a first message into a second root, and keeps its attached files", async () => {
    const chat = await newChat(user);
    const res = await user.call(chatsApi.reply, {
      params: { id: chat.id },
      body: { content: "read this", attachments: [{ name: "notes.txt", content: "the notes" }] },
    });
    expect(res.status).toBe(200);
    const [q1] = await shown(chat.id);
    if (!q1) throw new Error("no message");
    const again = await edit(user, chat.id, q1.id, { content: "read this, please" });
    expect(again.status).toBe(200);
    const after = await shown(chat.id);
    expect(after[0]).toMatchObject({ parentId: null, content: "read this, please", attachments: [{ name: "notes.txt", size: 9 }] });
    expect(after[0]?.branch.count).toBe(2);
    expect(lastHistory()).toEqual(['user:read this, please\n\n<attached-file name="notes.txt">\nthe notes\n</attached-file>']);
  });

  it("refuses an assistant reply (400), empty or NUL text (400), and signed-out callers (401)", async () => {
    const { chat, a1, q2 } = await twoExchanges();
    const ofReply = await edit(user, chat.id, a1.id, { content: "rewritten" });
    expect(ofReply.status).toBe(400);
    expect(ofReply.error.message).toBe("Only your own messages can be edited. To get another reply, use Regenerate.");
    const empty = await edit(user, chat.id, q2.id, { content: "   " });
    expect(empty.status).toBe(400);
    expect(empty.error.message).toContain("Message cannot be empty");
    const nul = await edit(user, chat.id, q2.id, { content: "a\u0000b" });
    expect(nul.status).toBe(400);
    expect(nul.error.message).toMatch(/text/i);
    const anonymous = await callApp(t.app, chatsApi.editMessage, { params: { id: chat.id, messageId: q2.id }, body: { content: "x" } });
    expect(anonymous.status).toBe(401);
    // Nothing was stored by the refusals.
    expect((await shown(chat.id)).map((m) => m.branch.count)).toEqual([1, 1, 1, 1]);
  });

  it("answers 404 for another user's chat or message, and for a message of another chat", async () => {
    const { chat, q2 } = await twoExchanges();
    expect((await edit(other, chat.id, q2.id, { content: "mine now" })).status).toBe(404);
    const theirs = await newChat(other);
    expect((await edit(other, theirs.id, q2.id, { content: "mine now" })).status).toBe(404);
    const second = await newChat(user);
    const wrongChat = await edit(user, second.id, q2.id, { content: "wrong chat" });
    expect(wrongChat.status).toBe(404);
    expect(wrongChat.error.message).toBe("Message not found");
    expect((await shown(chat.id)).map((m) => m.branch.count)).toEqual([1, 1, 1, 1]);
  });
});

describe("switching branches", () => {
  it("shows the branch through the message chosen, down to its newest reply at each step", async () => {
    const { chat, q1, a1, q2, a2 } = await twoExchanges();
    const edited = startOf(parseEvents((await edit(user, chat.id, q2.id, { content: "v2" })).response.body));
    const newReply = edited.assistantMessage.id;
    // From the root, the newest child is taken at each step: the edited version.
    expect(await switched(user, chat.id, { messageId: q1.id })).toEqual({ leafId: newReply });
    expect(contents(await shown(chat.id))).toEqual(["first question", "Echo: first question", "v2", "Echo: v2"]);
    expect(await switched(user, chat.id, { messageId: a2.id })).toEqual({ leafId: a2.id });
    expect((await shown(chat.id)).map((m) => m.id)).toEqual([q1.id, a1.id, q2.id, a2.id]);
    // The chat remembers it.
    expect((await shown(chat.id)).at(-1)?.id).toBe(a2.id);
  });

  it("pages back up the branch shown", async () => {
    const { chat, q2 } = await twoExchanges();
    await edit(user, chat.id, q2.id, { content: "v2" });
    const res = await page(chat.id, { limit: 2 });
    expect(contents(res.data.items)).toEqual(["v2", "Echo: v2"]);
    const cursor = res.headers["x-next-cursor"];
    expect(typeof cursor).toBe("string");
    const older = await page(chat.id, { limit: 2, before: res.data.nextCursor ?? "" });
    expect(contents(older.data.items)).toEqual(["first question", "Echo: first question"]);
    expect(older.headers["x-next-cursor"]).toBeUndefined();
  });

  it("answers 404 for a message not in the caller's chat, 400 for a bad id, 401 signed out", async () => {
    const { chat, q1 } = await twoExchanges();
    expect((await switchTo(other, chat.id, { messageId: q1.id })).status).toBe(404);
    const theirs = await newChat(other);
    expect((await switchTo(other, theirs.id, { messageId: q1.id })).status).toBe(404);
    const second = await newChat(user);
    const wrong = await switchTo(user, second.id, { messageId: q1.id });
    expect(wrong.status).toBe(404);
    expect(wrong.error.message).toBe("Message not found");
    const bad = await switchTo(user, chat.id, { messageId: q1.id }, { rawBody: { messageId: "first" } });
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toHaveProperty("messageId");
    const anonymous = await callApp(t.app, chatsApi.switchBranch, { params: { id: chat.id }, body: { messageId: q1.id } });
    expect(anonymous.status).toBe(401);
  });
});

describe("regenerate", () => {
  it("adds a sibling reply and shows it; the earlier reply stays as a branch", async () => {
    const { chat, q2, a2 } = await twoExchanges();
    const res = await regenerate(chat.id);
    expect(res.status).toBe(200);
    const start = startOf(parseEvents(res.response.body));
    expect(start.userMessage).toBeNull();
    expect(start.assistantMessage.parentId).toBe(q2.id);
    const after = await shown(chat.id);
    expect(after.at(-1)).toMatchObject({
      id: start.assistantMessage.id,
      branch: { index: 2, count: 2, siblingIds: [a2.id, start.assistantMessage.id] },
    });
    expect(lastHistory()).toEqual(["user:first question", "assistant:Echo: first question", "user:second question"]);
    expect(await switched(user, chat.id, { messageId: a2.id })).toEqual({ leafId: a2.id });
    expect((await shown(chat.id)).at(-1)).toMatchObject({ id: a2.id, branch: { index: 1, count: 2 } });
  });
});

describe("a reply being written on a branch", () => {
  it("resumes on the branch, refuses a switch, an edit or a send meanwhile (409), and allows them afterwards", async () => {
    const { chat, q1, q2 } = await twoExchanges();
    const cookie = user.sessionCookie ?? "";
    const abort = new AbortController();
    // Over a socket (the reply must stay open while the other calls are made), at the contract's address.
    const editing = { content: "#slow edit" };
    const editUrl = requestFor(chatsApi.editMessage, { params: { id: chat.id, messageId: q2.id }, body: editing }).url;
    const res = await jsonPost(`${base}${editUrl}`, cookie, editing, abort.signal);
    expect(res.status).toBe(200);
    const first = await readEvents(res, (event) => event.type === "delta");
    abort.abort();
    const start = first[0];
    if (start?.type !== "start") throw new Error("no start");
    const newUser = start.userMessage?.id;

    // Mid-stream, the branch shown ends with the reply being written.
    const midway = await shown(chat.id);
    expect(midway.map((m) => m.id).slice(-2)).toEqual([newUser, start.assistantMessage.id]);
    expect(midway.at(-1)?.status).toBe("streaming");

    // Resume after a reload follows that reply.
    const resumed = await fetch(`${base}${requestFor(chatsApi.stream, { params: { id: chat.id } }).url}`, { headers: { cookie } });
    expect(resumed.status).toBe(200);
    const resumeAbort = readEvents(resumed, (event) => event.type === "snapshot");
    const [snapshot] = await resumeAbort;
    expect(snapshot?.type === "snapshot" && snapshot.assistantMessage).toMatchObject({ id: start.assistantMessage.id, parentId: newUser });

    const switching = await switchTo(user, chat.id, { messageId: q1.id });
    expect(switching.status).toBe(409);
    expect(switching.error.message).toContain("still being written");
    expect((await edit(user, chat.id, q2.id, { content: "again" })).status).toBe(409);
    expect((await reply(chat.id, "more")).status).toBe(409);
    expect((await regenerate(chat.id)).status).toBe(409);

    expect((await user.call(chatsApi.stop, { params: { id: chat.id } })).response.json()).toEqual({ stopped: true });
    for (let i = 0; i < 100 && (await shown(chat.id)).at(-1)?.status === "streaming"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await switchTo(user, chat.id, { messageId: q2.id })).status).toBe(200);
    expect(contents(await shown(chat.id)).slice(-2)).toEqual(["second question", "Echo: second question"]);
  });
});

describe("messages stored one by one (POST /messages)", () => {
  it("follow the leaf shown and become it", async () => {
    const { chat, q2, a2 } = await twoExchanges();
    await edit(user, chat.id, q2.id, { content: "v2" });
    await switchTo(user, chat.id, { messageId: a2.id });
    const res = await user.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content: "a note" } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ parentId: a2.id });
    expect(contents(await shown(chat.id)).slice(-2)).toEqual(["Echo: second question", "a note"]);
  });
});
