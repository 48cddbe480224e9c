// Chat share links (issue 33, decision 043): the owner makes, lists, updates and revokes links to a snapshot of the
// branch shown; anyone reads the snapshot (API and the page /share/:token, written at request time); a revoked link,
// a disabled owner's, or junk is a 404 at once; another user can do nothing with someone's links; admins list and
// revoke any; "Continue this chat" copies exactly the shared branch into the caller's account.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { adminSharesApi, SHARE_MESSAGES, type SharedChat, sharesApi } from "../../src/shared/contracts/sharing.js";
import { SHARED_CHAT_DATA_ID } from "../../src/shared/share-page.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat } from "../helpers/chat-setup.js";

// A stand-in for dist/web: the page is the app's HTML with the share's head and data written in.
const webDist = mkdtempSync(path.join(tmpdir(), "web-dist-shares-"));
writeFileSync(
  path.join(webDist, "index.html"),
  '<!doctype html><html><head><title>app shell</title><meta name="description" content="the app" /></head><body><div id="root"></div></body></html>',
);

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let ownerId: number;
let other: CookieClient;
let visitor: CookieClient;
beforeAll(async () => {
  t = await buildTestApp({ env: { WEB_DIST: webDist } });
  admin = (await registerAndSignIn(t.app)).client;
  const made = await registerAndSignIn(t.app, { name: "Ada Owner" });
  owner = made.client;
  ownerId = made.user.id;
  other = (await registerAndSignIn(t.app)).client;
  visitor = new CookieClient(t.app);
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const db = () => t.database.db;
const say = async (client: CookieClient, chatId: number, content: string, role: "user" | "assistant" = "user") => {
  const res = await client.call(chatsApi.addMessage, { params: { id: chatId }, body: { content, role } });
  expect(res.status, res.response.body).toBe(201);
  return res.data;
};
/** The snapshot a link shows (GET /api/shares/{token}), read by anyone. */
const read = (token: string, client = visitor) => client.call(sharesApi.get, { params: { token } });
const update = (client: CookieClient, token: string, body: { showAuthor?: boolean } = {}) =>
  client.call(sharesApi.update, { params: { token }, body });
const revoke = (client: CookieClient, token: string) => client.call(sharesApi.revoke, { params: { token } });
const adminShares = async () => (await admin.ok(adminSharesApi.list, { query: { limit: 100 } })).items;

/**
 * A chat with two branches: "first question" answered by "answer one" (older) and "answer two" (newer), the branch
 * of "answer one" shown; an attachment named on the question.
 */
async function branchedChat(client: CookieClient = owner) {
  const chat = await newChat(client);
  const q = await say(client, chat.id, "first question");
  const a1 = await say(client, chat.id, "answer **one**", "assistant");
  const [row] = await db()
    .insert(messages)
    .values({ chatId: chat.id, userId: ownerId, parentId: q.id, role: "assistant", content: "answer two", model: "gpt-x" })
    .returning();
  await db()
    .update(messages)
    .set({ attachments: [{ name: "notes.txt", size: 5, content: "SECRET BYTES" }], model: null })
    .where(eq(messages.id, q.id));
  await db().update(messages).set({ model: "gpt-4o-mini" }).where(eq(messages.id, a1.id));
  const switched = await client.call(chatsApi.switchBranch, { params: { id: chat.id }, body: { messageId: a1.id } });
  expect(switched.status, switched.response.body).toBe(200);
  return { chatId: chat.id, a1: a1.id, a2: row?.id ?? 0 };
}

const share = async (chatId: number, body: { showAuthor?: boolean } = {}, client = owner) => {
  const res = await client.call(sharesApi.create, { params: { id: chatId }, body });
  expect(res.status, res.response.body).toBe(201);
  return res.data;
};
const sharedData = (html: string): SharedChat => {
  const match = new RegExp(`<script type="application/json" id="${SHARED_CHAT_DATA_ID}">([^<]*)</script>`).exec(html);
  if (!match?.[1]) throw new Error("no snapshot in the page");
  return JSON.parse(match[1]) as SharedChat;
};

describe("making and reading a link", () => {
  it("snapshots the branch shown (roles, text, attachment names, models, dates), no other branch, no name by default", async () => {
    const { chatId } = await branchedChat();
    const { token, url } = await share(chatId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toMatch(new RegExp(`/share/${token}$`));

    const res = await read(token);
    expect(res.status).toBe(200);
    const shared = res.data;
    expect(shared.title).toBe("first question");
    expect(shared.author).toBeNull();
    expect(shared.messages).toEqual([
      { role: "user", content: "first question", attachmentNames: ["notes.txt"], sources: [], model: null, createdAt: expect.any(String) },
      {
        role: "assistant",
        content: "answer **one**",
        attachmentNames: [],
        sources: [],
        model: "gpt-4o-mini",
        createdAt: expect.any(String),
      },
    ]);
    expect(res.response.body).not.toContain("SECRET BYTES");
    expect(res.response.body).not.toContain("answer two");
  });

  it("shows the owner's display name only when chosen, and never the username", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId, { showAuthor: true });
    const shared = (await read(token)).data;
    expect(shared.author).toBe("Ada Owner");
    const hidden = await update(owner, token, { showAuthor: false });
    expect(hidden.status).toBe(200);
    expect((await read(token)).data.author).toBeNull();
  });

  it("refuses a temporary chat (400 with the message), a chat with nothing finished, someone else's chat (404), bad input (400)", async () => {
    const temp = await newChat(owner);
    await say(owner, temp.id, "hello");
    await db().update(chats).set({ temporary: true }).where(eq(chats.id, temp.id));
    const refused = await owner.call(sharesApi.create, { params: { id: temp.id }, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe(SHARE_MESSAGES.temporaryChat);

    const empty = await newChat(owner);
    const none = await owner.call(sharesApi.create, { params: { id: empty.id }, body: {} });
    expect(none.status).toBe(400);
    expect(none.error.message).toBe(SHARE_MESSAGES.emptyChat);

    const { chatId } = await branchedChat();
    const params = { id: chatId };
    expect((await other.call(sharesApi.create, { params, body: {} })).status).toBe(404);
    expect((await visitor.call(sharesApi.create, { params, body: {} })).status).toBe(401);
    const bad = await owner.call(sharesApi.create, { params, body: {} }, { rawBody: { showAuthor: "yes" } });
    expect(bad.status).toBe(400);
    expect((await owner.call(sharesApi.create, { params, body: {} }, { rawBody: { extra: 1 } })).status).toBe(400);
  });

  it("names the sources a reply cites (name and page), never their text; a snapshot taken before has none", async () => {
    const { chatId, a1 } = await branchedChat();
    const cited = (n: number, fileName: string, page: number | null) => ({
      n,
      fileId: 1,
      fileName,
      page,
      excerpt: `PRIVATE PASSAGE ${n}`,
      chunkId: 7,
    });
    await db()
      .update(messages)
      .set({ content: "answer **one** [1] [2]", citations: [cited(1, "handbook.pdf", 31), cited(2, "notes.md", null)] })
      .where(eq(messages.id, a1));
    const { token } = await share(chatId);
    const res = await read(token);
    expect(res.status).toBe(200);
    const shared = res.data;
    expect(shared.messages.map((m) => m.sources)).toEqual([
      [],
      [
        { n: 1, name: "handbook.pdf", page: 31 },
        { n: 2, name: "notes.md", page: null },
      ],
    ]);
    expect(res.response.body).not.toContain("PRIVATE PASSAGE");
    expect(res.response.body).not.toContain("chunkId");
    // The page carries the same, and no passage either.
    const page = await visitor.get(`/share/${token}`);
    expect(sharedData(page.body).messages[1]?.sources).toEqual(shared.messages[1]?.sources);
    expect(page.body).not.toContain("PRIVATE PASSAGE");

    // A snapshot stored before sources were kept reads as citing none.
    await db().execute(sql`update chat_shares set messages = (
      select jsonb_agg(m - 'sources' order by i) from jsonb_array_elements(messages) with ordinality as e(m, i)) where token = ${token}`);
    const older = (await read(token)).data;
    expect(older.messages.map((m) => m.sources)).toEqual([[], []]);
  });

  it("leaves a reply still being written out of the snapshot", async () => {
    const { chatId } = await branchedChat();
    const [leaf] = await db().select({ id: chats.activeLeafId }).from(chats).where(eq(chats.id, chatId));
    await db()
      .insert(messages)
      .values({ chatId, userId: ownerId, parentId: leaf?.id ?? null, role: "assistant", content: "half a rep", status: "streaming" });
    const { token } = await share(chatId);
    const shared = (await read(token)).data;
    expect(shared.messages.map((m) => m.content)).toEqual(["first question", "answer **one**"]);
  });

  it("answers junk and unknown tokens 400/404, never 5xx", async () => {
    expect((await read("abc")).status).toBe(400);
    expect((await read("A".repeat(43))).status).toBe(404);
    expect((await read("A".repeat(43))).error.message).toBe(SHARE_MESSAGES.notFound);
    expect((await visitor.get("/share/abc")).statusCode).toBe(404);
    expect((await visitor.get(`/share/${"A".repeat(43)}`)).statusCode).toBe(404);
  });
});

describe("the page /share/:token", () => {
  it("is written at request time: the title and first lines in the head, noindex, the snapshot and nothing later", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    await say(owner, chatId, "a later message");
    const res = await visitor.get(`/share/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(String(res.headers["content-security-policy"])).toContain("script-src 'self'");
    const html = res.body;
    expect(html).toContain("<title>first question | Lumora</title>");
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain('<meta property="og:title" content="first question" />');
    expect(html).toContain('<meta property="og:description" content="first question answer one" />');
    expect(html).not.toContain("app shell");
    expect(sharedData(html).messages.map((m) => m.content)).toEqual(["first question", "answer **one**"]);
    expect(html).toContain("<noscript>");
    expect(html).not.toContain("a later message");
    expect(html).not.toContain("answer two");

    // Updated: the branch shown now, with the later message.
    const updated = await update(owner, token);
    expect(updated.status).toBe(200);
    expect(updated.data.messageCount).toBe(3);
    expect((await visitor.get(`/share/${token}`)).body).toContain("a later message");
  });

  it("escapes what the chat holds: no tag of the content reaches the HTML as markup", async () => {
    const chat = await newChat(owner);
    const evil = `<script>window.__pwned=1</script><img src=x onerror="alert(1)"> [x](javascript:alert(1)) </title><b>raw</b>`;
    await say(owner, chat.id, evil);
    const { token } = await share(chat.id);
    const html = (await visitor.get(`/share/${token}`)).body;
    expect(html).not.toContain("<script>window.__pwned");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>raw</b>");
    expect(html).not.toContain("</title><b>");
    expect(sharedData(html).messages[0]?.content).toBe(evil);
  });
});

describe("the owner's links", () => {
  it("lists only the caller's live links, newest first, paged; per chat; another user sees none of them", async () => {
    const { chatId } = await branchedChat();
    const first = await share(chatId);
    const second = await share(chatId);
    const mine = (await owner.ok(sharesApi.list, { query: { chatId: String(chatId) } })).items;
    expect(mine.map((l) => l.token)).toEqual([second.token, first.token]);
    expect(mine[0]).toMatchObject({ chatId, title: "first question", showAuthor: false, messageCount: 2, url: second.url });

    const paged = await owner.ok(sharesApi.list, { query: { chatId: String(chatId), limit: 1 } });
    expect(paged.items.map((l) => l.token)).toEqual([second.token]);
    const cursor = paged.nextCursor;
    expect(cursor).toBeTruthy();
    const next = await owner.ok(sharesApi.list, { query: { chatId: String(chatId), limit: 1, cursor: cursor ?? undefined } });
    expect(next.items.map((l) => l.token)).toEqual([first.token]);

    const theirs = (await other.ok(sharesApi.list, {})).items;
    expect(theirs.map((l) => l.token)).not.toContain(first.token);
    expect((await visitor.call(sharesApi.list, {})).status).toBe(401);
    expect((await owner.call(sharesApi.list, { query: { limit: 0 } })).status).toBe(400);
  });

  it("another user cannot update or revoke someone's link (404), and it keeps working", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    expect((await update(other, token, { showAuthor: true })).status).toBe(404);
    expect((await revoke(other, token)).status).toBe(404);
    expect((await update(visitor, token)).status).toBe(401);
    expect((await revoke(visitor, token)).status).toBe(401);
    expect((await owner.call(sharesApi.update, { params: { token }, body: {} }, { rawBody: { showAuthor: "no" } })).status).toBe(400);
    expect((await read(token)).status).toBe(200);
  });

  it("revokes: 404 at once on the API and the page, gone from the list; revoking again is 404", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    expect((await visitor.get(`/share/${token}`)).statusCode).toBe(200);
    const revoked = await revoke(owner, token);
    expect(revoked.status).toBe(204);
    expect((await read(token)).status).toBe(404);
    const page = await visitor.get(`/share/${token}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("app shell");
    expect(page.body).not.toContain("first question");
    expect((await owner.ok(sharesApi.list, {})).items.map((l) => l.token)).not.toContain(token);
    expect((await revoke(owner, token)).status).toBe(404);
    expect((await update(owner, token)).status).toBe(404);
    expect((await other.call(sharesApi.continue, { params: { token } })).status).toBe(404);
  });
});

describe("continue this chat", () => {
  it("copies exactly the shared branch into the caller's account, titled as shared, and opens on it", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    await say(owner, chatId, "after the snapshot");
    const res = await other.call(sharesApi.continue, { params: { token } });
    expect(res.status, res.response.body).toBe(201);
    const { chatId: copy } = res.data;
    expect(copy).not.toBe(chatId);
    const chat = await other.ok(chatsApi.get, { params: { id: copy } });
    expect(chat.title).toBe("Shared: first question");
    const shown = (await other.ok(chatsApi.messages, { params: { id: copy } })).items;
    expect(shown.map((m) => [m.role, m.content])).toEqual([
      ["user", "first question"],
      ["assistant", "answer **one**"],
    ]);
    expect(shown[0]?.attachments.map((a) => a.name)).toEqual(["notes.txt"]);
    expect(JSON.stringify(shown)).not.toContain("SECRET BYTES");
    // The owner's chat is untouched, and the copy is not the owner's.
    expect((await owner.call(chatsApi.get, { params: { id: copy } })).status).toBe(404);
    expect((await visitor.call(sharesApi.continue, { params: { token } })).status).toBe(401);
  });
});

describe("admins and disabled owners", () => {
  it("an admin lists every link with its owner and state, and revokes any; others are refused", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    const list = await admin.call(adminSharesApi.list, { query: { limit: 100 } });
    expect(list.status).toBe(200);
    const row = list.data.items.find((s) => s.token === token);
    expect(row).toMatchObject({ title: "first question", owner: { id: ownerId }, state: "active", revokedAt: null });
    expect((await owner.call(adminSharesApi.list, {})).status).toBe(403);
    expect((await owner.call(adminSharesApi.revoke, { params: { token } })).status).toBe(403);
    expect((await visitor.call(adminSharesApi.list, {})).status).toBe(401);

    expect((await admin.call(adminSharesApi.revoke, { params: { token } })).status).toBe(204);
    expect((await read(token)).status).toBe(404);
    const after = (await adminShares()).find((s) => s.token === token);
    expect(after?.state).toBe("revoked");
    expect((await admin.call(adminSharesApi.revoke, { params: { token: "B".repeat(43) } })).status).toBe(404);
    expect((await admin.call(adminSharesApi.revoke, { params: { token: "nope" } })).status).toBe(400);
  });

  it("a disabled owner's links answer 404 (API and page), and work again when the account is enabled", async () => {
    const made = await registerAndSignIn(t.app, { name: "Soon Disabled" });
    const chat = await newChat(made.client);
    await say(made.client, chat.id, "a question");
    const { token } = await share(chat.id, {}, made.client);
    expect((await read(token)).status).toBe(200);
    const params = { id: made.user.id };
    const disable = await admin.call(adminUsersApi.update, { params, body: { status: "inactive" } });
    expect(disable.status, disable.response.body).toBe(200);
    expect((await read(token)).status).toBe(404);
    expect((await visitor.get(`/share/${token}`)).statusCode).toBe(404);
    const state = (await adminShares()).find((s) => s.token === token);
    expect(state?.state).toBe("ownerDisabled");
    await admin.ok(adminUsersApi.update, { params, body: { status: "active" } });
    expect((await read(token)).status).toBe(200);
    // A deleted owner's links are gone with the account.
    expect((await admin.call(adminUsersApi.remove, { params })).status).toBe(204);
    expect((await read(token)).status).toBe(404);
  });
});
