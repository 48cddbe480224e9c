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
import type { ShownMessage } from "../../src/shared/contracts/chat.js";
import { type AdminShare, SHARE_MESSAGES, type SharedChat, type ShareLink } from "../../src/shared/contracts/sharing.js";
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
const put = (client: CookieClient, url: string, payload: Record<string, unknown> = {}) => client.request({ method: "PUT", url, payload });
const del = (client: CookieClient, url: string) => client.request({ method: "DELETE", url });
const say = async (client: CookieClient, chatId: number, content: string, role: "user" | "assistant" = "user") => {
  const res = await client.post(`/api/chats/${chatId}/messages`, { content, role });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
};

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
  const switched = await put(client, `/api/chats/${chat.id}/branch`, { messageId: a1.id });
  expect(switched.statusCode, switched.body).toBe(200);
  return { chatId: chat.id, a1: a1.id, a2: row?.id ?? 0 };
}

const share = async (chatId: number, body: Record<string, unknown> = {}, client = owner) => {
  const res = await client.post(`/api/chats/${chatId}/shares`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { token: string; url: string };
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

    const res = await visitor.get(`/api/shares/${token}`);
    expect(res.statusCode).toBe(200);
    const shared = res.json() as SharedChat;
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
    expect(res.body).not.toContain("SECRET BYTES");
    expect(res.body).not.toContain("answer two");
  });

  it("shows the owner's display name only when chosen, and never the username", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId, { showAuthor: true });
    const shared = (await visitor.get(`/api/shares/${token}`)).json() as SharedChat;
    expect(shared.author).toBe("Ada Owner");
    const hidden = await put(owner, `/api/shares/${token}`, { showAuthor: false });
    expect(hidden.statusCode).toBe(200);
    expect(((await visitor.get(`/api/shares/${token}`)).json() as SharedChat).author).toBeNull();
  });

  it("refuses a temporary chat (400 with the message), a chat with nothing finished, someone else's chat (404), bad input (400)", async () => {
    const temp = await newChat(owner);
    await say(owner, temp.id, "hello");
    await db().update(chats).set({ temporary: true }).where(eq(chats.id, temp.id));
    const refused = await owner.post(`/api/chats/${temp.id}/shares`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(SHARE_MESSAGES.temporaryChat);

    const empty = await newChat(owner);
    const none = await owner.post(`/api/chats/${empty.id}/shares`, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(SHARE_MESSAGES.emptyChat);

    const { chatId } = await branchedChat();
    expect((await other.post(`/api/chats/${chatId}/shares`, {})).statusCode).toBe(404);
    expect((await visitor.post(`/api/chats/${chatId}/shares`, {})).statusCode).toBe(401);
    const bad = await owner.post(`/api/chats/${chatId}/shares`, { showAuthor: "yes" });
    expect(bad.statusCode).toBe(400);
    expect((await owner.post(`/api/chats/${chatId}/shares`, { extra: 1 })).statusCode).toBe(400);
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
    const res = await visitor.get(`/api/shares/${token}`);
    expect(res.statusCode).toBe(200);
    const shared = res.json() as SharedChat;
    expect(shared.messages.map((m) => m.sources)).toEqual([
      [],
      [
        { n: 1, name: "handbook.pdf", page: 31 },
        { n: 2, name: "notes.md", page: null },
      ],
    ]);
    expect(res.body).not.toContain("PRIVATE PASSAGE");
    expect(res.body).not.toContain("chunkId");
    // The page carries the same, and no passage either.
    const page = await visitor.get(`/share/${token}`);
    expect(sharedData(page.body).messages[1]?.sources).toEqual(shared.messages[1]?.sources);
    expect(page.body).not.toContain("PRIVATE PASSAGE");

    // A snapshot stored before sources were kept reads as citing none.
    await db().execute(sql`update chat_shares set messages = (
      select jsonb_agg(m - 'sources' order by i) from jsonb_array_elements(messages) with ordinality as e(m, i)) where token = ${token}`);
    const older = (await visitor.get(`/api/shares/${token}`)).json() as SharedChat;
    expect(older.messages.map((m) => m.sources)).toEqual([[], []]);
  });

  it("leaves a reply still being written out of the snapshot", async () => {
    const { chatId } = await branchedChat();
    const [leaf] = await db().select({ id: chats.activeLeafId }).from(chats).where(eq(chats.id, chatId));
    await db()
      .insert(messages)
      .values({ chatId, userId: ownerId, parentId: leaf?.id ?? null, role: "assistant", content: "half a rep", status: "streaming" });
    const { token } = await share(chatId);
    const shared = (await visitor.get(`/api/shares/${token}`)).json() as SharedChat;
    expect(shared.messages.map((m) => m.content)).toEqual(["first question", "answer **one**"]);
  });

  it("answers junk and unknown tokens 400/404, never 5xx", async () => {
    expect((await visitor.get("/api/shares/abc")).statusCode).toBe(400);
    expect((await visitor.get(`/api/shares/${"A".repeat(43)}`)).statusCode).toBe(404);
    expect((await visitor.get(`/api/shares/${"A".repeat(43)}`)).json().message).toBe(SHARE_MESSAGES.notFound);
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
    const updated = await put(owner, `/api/shares/${token}`);
    expect(updated.statusCode).toBe(200);
    expect((updated.json() as ShareLink).messageCount).toBe(3);
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
    const mine = (await owner.get(`/api/shares?chatId=${chatId}`)).json() as ShareLink[];
    expect(mine.map((l) => l.token)).toEqual([second.token, first.token]);
    expect(mine[0]).toMatchObject({ chatId, title: "first question", showAuthor: false, messageCount: 2, url: second.url });

    const paged = await owner.get(`/api/shares?chatId=${chatId}&limit=1`);
    expect((paged.json() as ShareLink[]).map((l) => l.token)).toEqual([second.token]);
    const cursor = paged.headers["x-next-cursor"];
    expect(cursor).toBeTruthy();
    const next = await owner.get(`/api/shares?chatId=${chatId}&limit=1&cursor=${cursor}`);
    expect((next.json() as ShareLink[]).map((l) => l.token)).toEqual([first.token]);

    const theirs = (await other.get("/api/shares")).json() as ShareLink[];
    expect(theirs.map((l) => l.token)).not.toContain(first.token);
    expect((await visitor.get("/api/shares")).statusCode).toBe(401);
    expect((await owner.get("/api/shares?limit=0")).statusCode).toBe(400);
  });

  it("another user cannot update or revoke someone's link (404), and it keeps working", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    expect((await put(other, `/api/shares/${token}`, { showAuthor: true })).statusCode).toBe(404);
    expect((await del(other, `/api/shares/${token}`)).statusCode).toBe(404);
    expect((await put(visitor, `/api/shares/${token}`)).statusCode).toBe(401);
    expect((await del(visitor, `/api/shares/${token}`)).statusCode).toBe(401);
    expect((await put(owner, `/api/shares/${token}`, { showAuthor: "no" })).statusCode).toBe(400);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(200);
  });

  it("revokes: 404 at once on the API and the page, gone from the list; revoking again is 404", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    expect((await visitor.get(`/share/${token}`)).statusCode).toBe(200);
    const revoked = await del(owner, `/api/shares/${token}`);
    expect(revoked.statusCode).toBe(204);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(404);
    const page = await visitor.get(`/share/${token}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("app shell");
    expect(page.body).not.toContain("first question");
    expect(((await owner.get("/api/shares")).json() as ShareLink[]).map((l) => l.token)).not.toContain(token);
    expect((await del(owner, `/api/shares/${token}`)).statusCode).toBe(404);
    expect((await put(owner, `/api/shares/${token}`)).statusCode).toBe(404);
    expect((await other.post(`/api/shares/${token}/continue`)).statusCode).toBe(404);
  });
});

describe("continue this chat", () => {
  it("copies exactly the shared branch into the caller's account, titled as shared, and opens on it", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    await say(owner, chatId, "after the snapshot");
    const res = await other.post(`/api/shares/${token}/continue`);
    expect(res.statusCode, res.body).toBe(201);
    const { chatId: copy } = res.json() as { chatId: number };
    expect(copy).not.toBe(chatId);
    const chat = (await other.get(`/api/chats/${copy}`)).json() as { title: string };
    expect(chat.title).toBe("Shared: first question");
    const shown = (await other.get(`/api/chats/${copy}/messages`)).json() as ShownMessage[];
    expect(shown.map((m) => [m.role, m.content])).toEqual([
      ["user", "first question"],
      ["assistant", "answer **one**"],
    ]);
    expect(shown[0]?.attachments.map((a) => a.name)).toEqual(["notes.txt"]);
    expect(JSON.stringify(shown)).not.toContain("SECRET BYTES");
    // The owner's chat is untouched, and the copy is not the owner's.
    expect((await owner.get(`/api/chats/${copy}`)).statusCode).toBe(404);
    expect((await visitor.post(`/api/shares/${token}/continue`)).statusCode).toBe(401);
  });
});

describe("admins and disabled owners", () => {
  it("an admin lists every link with its owner and state, and revokes any; others are refused", async () => {
    const { chatId } = await branchedChat();
    const { token } = await share(chatId);
    const list = await admin.get("/api/admin/shares?limit=100");
    expect(list.statusCode).toBe(200);
    const row = (list.json() as AdminShare[]).find((s) => s.token === token);
    expect(row).toMatchObject({ title: "first question", owner: { id: ownerId }, state: "active", revokedAt: null });
    expect((await owner.get("/api/admin/shares")).statusCode).toBe(403);
    expect((await del(owner, `/api/admin/shares/${token}`)).statusCode).toBe(403);
    expect((await visitor.get("/api/admin/shares")).statusCode).toBe(401);

    expect((await del(admin, `/api/admin/shares/${token}`)).statusCode).toBe(204);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(404);
    const after = ((await admin.get("/api/admin/shares?limit=100")).json() as AdminShare[]).find((s) => s.token === token);
    expect(after?.state).toBe("revoked");
    expect((await del(admin, `/api/admin/shares/${"B".repeat(43)}`)).statusCode).toBe(404);
    expect((await del(admin, "/api/admin/shares/nope")).statusCode).toBe(400);
  });

  it("a disabled owner's links answer 404 (API and page), and work again when the account is enabled", async () => {
    const made = await registerAndSignIn(t.app, { name: "Soon Disabled" });
    const chat = await newChat(made.client);
    await say(made.client, chat.id, "a question");
    const { token } = await share(chat.id, {}, made.client);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(200);
    const disable = await admin.patch(`/api/admin/users/${made.user.id}`, { status: "inactive" });
    expect(disable.statusCode, disable.body).toBe(200);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(404);
    expect((await visitor.get(`/share/${token}`)).statusCode).toBe(404);
    const state = ((await admin.get("/api/admin/shares?limit=100")).json() as AdminShare[]).find((s) => s.token === token);
    expect(state?.state).toBe("ownerDisabled");
    await admin.patch(`/api/admin/users/${made.user.id}`, { status: "active" });
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(200);
    // A deleted owner's links are gone with the account.
    expect((await del(admin, `/api/admin/users/${made.user.id}`)).statusCode).toBe(204);
    expect((await visitor.get(`/api/shares/${token}`)).statusCode).toBe(404);
  });
});
