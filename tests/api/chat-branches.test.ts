// Edit and branch (issue 16): messages form a tree; an edit or a regenerate adds a sibling and keeps the earlier
// version as a branch; the chat shows one branch (GET messages, resume, the AI's history) and switches between them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShownMessage, StreamEvent } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
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

const shown = async (chatId: number, query = "") => {
  const res = await user.get(`/api/chats/${chatId}/messages${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ShownMessage[];
};
const contents = (list: ShownMessage[]) => list.map((m) => m.content);
const send = async (chatId: number, content: string) => {
  const res = await user.post(`/api/chats/${chatId}/reply`, { content });
  expect(res.statusCode).toBe(200);
  return parseEvents(res.body);
};
const edit = (client: CookieClient, chatId: number, messageId: number, body: unknown) =>
  client.post(`/api/chats/${chatId}/messages/${messageId}/edit`, body);
const switchTo = (client: CookieClient, chatId: number, body: unknown) =>
  client.request({ method: "PUT", url: `/api/chats/${chatId}/branch`, payload: body as Record<string, unknown> });
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
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    const events = parseEvents(res.body);
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
    expect((await switchTo(user, chat.id, { messageId: q2.id })).json()).toEqual({ leafId: a2.id });
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
    const res = await user.post(`/api/chats/${chat.id}/reply`, {
      content: "read this",
      attachments: [{ name: "notes.txt", content: "the notes" }],
    });
    expect(res.statusCode).toBe(200);
    const [q1] = await shown(chat.id);
    if (!q1) throw new Error("no message");
    const again = await edit(user, chat.id, q1.id, { content: "read this, please" });
    expect(again.statusCode).toBe(200);
    const after = await shown(chat.id);
    expect(after[0]).toMatchObject({ parentId: null, content: "read this, please", attachments: [{ name: "notes.txt", size: 9 }] });
    expect(after[0]?.branch.count).toBe(2);
    expect(lastHistory()).toEqual(['user:read this, please\n\n<attached-file name="notes.txt">\nthe notes\n</attached-file>']);
  });

  it("refuses an assistant reply (400), empty or NUL text (400), and signed-out callers (401)", async () => {
    const { chat, a1, q2 } = await twoExchanges();
    const reply = await edit(user, chat.id, a1.id, { content: "rewritten" });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().message).toBe("Only your own messages can be edited. To get another reply, use Regenerate.");
    const empty = await edit(user, chat.id, q2.id, { content: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("Message cannot be empty");
    const nul = await edit(user, chat.id, q2.id, { content: "a\u0000b" });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toMatch(/text/i);
    const anonymous = await t.app.inject({
      method: "POST",
      url: `/api/chats/${chat.id}/messages/${q2.id}/edit`,
      payload: { content: "x" },
    });
    expect(anonymous.statusCode).toBe(401);
    // Nothing was stored by the refusals.
    expect((await shown(chat.id)).map((m) => m.branch.count)).toEqual([1, 1, 1, 1]);
  });

  it("answers 404 for another user's chat or message, and for a message of another chat", async () => {
    const { chat, q2 } = await twoExchanges();
    expect((await edit(other, chat.id, q2.id, { content: "mine now" })).statusCode).toBe(404);
    const theirs = await newChat(other);
    expect((await edit(other, theirs.id, q2.id, { content: "mine now" })).statusCode).toBe(404);
    const second = await newChat(user);
    const wrongChat = await edit(user, second.id, q2.id, { content: "wrong chat" });
    expect(wrongChat.statusCode).toBe(404);
    expect(wrongChat.json().message).toBe("Message not found");
    expect((await shown(chat.id)).map((m) => m.branch.count)).toEqual([1, 1, 1, 1]);
  });
});

describe("switching branches", () => {
  it("shows the branch through the message chosen, down to its newest reply at each step", async () => {
    const { chat, q1, a1, q2, a2 } = await twoExchanges();
    const edited = startOf(parseEvents((await edit(user, chat.id, q2.id, { content: "v2" })).body));
    const newReply = edited.assistantMessage.id;
    // From the root, the newest child is taken at each step: the edited version.
    expect((await switchTo(user, chat.id, { messageId: q1.id })).json()).toEqual({ leafId: newReply });
    expect(contents(await shown(chat.id))).toEqual(["first question", "Echo: first question", "v2", "Echo: v2"]);
    expect((await switchTo(user, chat.id, { messageId: a2.id })).json()).toEqual({ leafId: a2.id });
    expect((await shown(chat.id)).map((m) => m.id)).toEqual([q1.id, a1.id, q2.id, a2.id]);
    // The chat remembers it.
    expect((await shown(chat.id)).at(-1)?.id).toBe(a2.id);
  });

  it("pages back up the branch shown", async () => {
    const { chat, q2 } = await twoExchanges();
    await edit(user, chat.id, q2.id, { content: "v2" });
    const res = await user.get(`/api/chats/${chat.id}/messages?limit=2`);
    expect(contents(res.json() as ShownMessage[])).toEqual(["v2", "Echo: v2"]);
    const cursor = res.headers["x-next-cursor"];
    expect(typeof cursor).toBe("string");
    const older = await user.get(`/api/chats/${chat.id}/messages?limit=2&before=${cursor}`);
    expect(contents(older.json() as ShownMessage[])).toEqual(["first question", "Echo: first question"]);
    expect(older.headers["x-next-cursor"]).toBeUndefined();
  });

  it("answers 404 for a message not in the caller's chat, 400 for a bad id, 401 signed out", async () => {
    const { chat, q1 } = await twoExchanges();
    expect((await switchTo(other, chat.id, { messageId: q1.id })).statusCode).toBe(404);
    const theirs = await newChat(other);
    expect((await switchTo(other, theirs.id, { messageId: q1.id })).statusCode).toBe(404);
    const second = await newChat(user);
    const wrong = await switchTo(user, second.id, { messageId: q1.id });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe("Message not found");
    const bad = await switchTo(user, chat.id, { messageId: "first" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty("messageId");
    const anonymous = await t.app.inject({ method: "PUT", url: `/api/chats/${chat.id}/branch`, payload: { messageId: q1.id } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("regenerate", () => {
  it("adds a sibling reply and shows it; the earlier reply stays as a branch", async () => {
    const { chat, q2, a2 } = await twoExchanges();
    const res = await user.post(`/api/chats/${chat.id}/regenerate`, {});
    expect(res.statusCode).toBe(200);
    const start = startOf(parseEvents(res.body));
    expect(start.userMessage).toBeNull();
    expect(start.assistantMessage.parentId).toBe(q2.id);
    const after = await shown(chat.id);
    expect(after.at(-1)).toMatchObject({
      id: start.assistantMessage.id,
      branch: { index: 2, count: 2, siblingIds: [a2.id, start.assistantMessage.id] },
    });
    expect(lastHistory()).toEqual(["user:first question", "assistant:Echo: first question", "user:second question"]);
    expect((await switchTo(user, chat.id, { messageId: a2.id })).json()).toEqual({ leafId: a2.id });
    expect((await shown(chat.id)).at(-1)).toMatchObject({ id: a2.id, branch: { index: 1, count: 2 } });
  });
});

describe("a reply being written on a branch", () => {
  it("resumes on the branch, refuses a switch, an edit or a send meanwhile (409), and allows them afterwards", async () => {
    const { chat, q1, q2 } = await twoExchanges();
    const cookie = user.sessionCookie ?? "";
    const abort = new AbortController();
    const res = await jsonPost(`${base}/api/chats/${chat.id}/messages/${q2.id}/edit`, cookie, { content: "#slow edit" }, abort.signal);
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
    const resumed = await fetch(`${base}/api/chats/${chat.id}/stream`, { headers: { cookie } });
    expect(resumed.status).toBe(200);
    const resumeAbort = readEvents(resumed, (event) => event.type === "snapshot");
    const [snapshot] = await resumeAbort;
    expect(snapshot?.type === "snapshot" && snapshot.assistantMessage).toMatchObject({ id: start.assistantMessage.id, parentId: newUser });

    const switching = await switchTo(user, chat.id, { messageId: q1.id });
    expect(switching.statusCode).toBe(409);
    expect(switching.json().message).toContain("still being written");
    expect((await edit(user, chat.id, q2.id, { content: "again" })).statusCode).toBe(409);
    expect((await user.post(`/api/chats/${chat.id}/reply`, { content: "more" })).statusCode).toBe(409);
    expect((await user.post(`/api/chats/${chat.id}/regenerate`, {})).statusCode).toBe(409);

    expect((await user.post(`/api/chats/${chat.id}/stop`, {})).json()).toEqual({ stopped: true });
    for (let i = 0; i < 100 && (await shown(chat.id)).at(-1)?.status === "streaming"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await switchTo(user, chat.id, { messageId: q2.id })).statusCode).toBe(200);
    expect(contents(await shown(chat.id)).slice(-2)).toEqual(["second question", "Echo: second question"]);
  });
});

describe("messages stored one by one (POST /messages)", () => {
  it("follow the leaf shown and become it", async () => {
    const { chat, q2, a2 } = await twoExchanges();
    await edit(user, chat.id, q2.id, { content: "v2" });
    await switchTo(user, chat.id, { messageId: a2.id });
    const res = await user.post(`/api/chats/${chat.id}/messages`, { content: "a note" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ parentId: a2.id });
    expect(contents(await shown(chat.id)).slice(-2)).toEqual(["Echo: second question", "a note"]);
  });
});
