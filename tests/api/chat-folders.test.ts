// Folders and pins: create, rename and delete folders (moving the chats out or deleting them too), move chats in
// and out, pin and unpin, the sidebar's sections and their order, search limited to a folder; owner-only
// everywhere (another user's folder is a 404), clear 400s, and 401 signed out.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { chatFoldersApi, MAX_FOLDERS_PER_USER } from "../../src/shared/contracts/chat-folders.js";
import type { CallInput } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat } from "../helpers/chat-setup.js";

type ListQuery = CallInput<typeof chatsApi.list>["query"];
type ChatPatch = CallInput<typeof chatsApi.update>["body"];

let t: TestApp;
let alice: CookieClient;
let bob: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  alice = (await registerAndSignIn(t.app)).client;
  bob = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

const del = (client: CookieClient, id: number, chats?: "move" | "delete") =>
  client.call(chatFoldersApi.remove, { params: { id }, ...(chats ? { query: { chats } } : {}) });
const rename = (client: CookieClient, id: number, name: string) => client.call(chatFoldersApi.rename, { params: { id }, body: { name } });

async function chatWith(client: CookieClient, title: string, text = `about ${title}`) {
  const chat = await newChat(client, { title });
  expect((await client.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content: text, role: "user" } })).status).toBe(201);
  return chat.id;
}

async function folder(client: CookieClient, name: string) {
  const res = await client.call(chatFoldersApi.create, { body: { name } });
  expect(res.status).toBe(201);
  return res.data;
}

async function folders(client: CookieClient) {
  const res = await client.call(chatFoldersApi.list, {});
  expect(res.status).toBe(200);
  return res.data;
}

async function page(client: CookieClient, query: ListQuery = {}) {
  const res = await client.call(chatsApi.list, { query });
  expect(res.status).toBe(200);
  return res.data;
}

async function list(client: CookieClient, query: ListQuery = {}) {
  return (await page(client, query)).items;
}

async function patchChat(client: CookieClient, id: number, body: ChatPatch) {
  return client.call(chatsApi.update, { params: { id }, body });
}
const getChat = (client: CookieClient, id: number) => client.call(chatsApi.get, { params: { id } });

describe("folders", () => {
  it("creates a folder with a trimmed name, lists it with its chat count, renames it", async () => {
    const made = await folder(alice, "  Work stuff  ");
    expect(made).toMatchObject({ name: "Work stuff", chatCount: 0 });
    const chat = await chatWith(alice, "Quarterly plan");
    expect((await patchChat(alice, chat, { folderId: made.id })).data).toMatchObject({ id: chat, folderId: made.id });
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ name: "Work stuff", chatCount: 1 });

    const renamed = await rename(alice, made.id, " Work ");
    expect(renamed.status).toBe(200);
    expect(renamed.data).toMatchObject({ id: made.id, name: "Work", chatCount: 1 });
    expect((await folders(alice)).map((f) => f.name)).toContain("Work");
    expect(await folders(bob)).toEqual([]);
  });

  it("refuses a bad name with a clear message", async () => {
    for (const [body, message] of [
      [{ name: "   " }, "Folder name is required"],
      [{}, "Folder name is required"],
      [{ name: "x".repeat(61) }, "Folder name cannot exceed 60 characters"],
      [{ name: "tab\there" }, "Folder name contains characters that are not allowed"],
    ] as const) {
      const res = await alice.call(chatFoldersApi.create, { body: { name: "" } }, { rawBody: body });
      expect(res.status).toBe(400);
      expect(res.error.message).toBe(message);
    }
    const made = await folder(alice, "Renamable");
    const res = await rename(alice, made.id, "");
    expect(res.status).toBe(400);
    expect(res.error.message).toBe("Folder name is required");
    expect((await del(alice, made.id)).error.message).toMatch(/Choose whether the folder's chats move out/);
    // A mode the contract does not name: sent raw.
    expect((await alice.request({ method: "DELETE", url: `/api/chat-folders/${made.id}?chats=keep` })).statusCode).toBe(400);
    expect((await del(alice, made.id, "move")).status).toBe(204);
  });

  it(`stops at ${MAX_FOLDERS_PER_USER} folders per user, with a message that says what to do`, async () => {
    const carol = (await registerAndSignIn(t.app)).client;
    // Two at a time: the cap holds even when creates race.
    for (let i = 0; i < MAX_FOLDERS_PER_USER; i += 2) {
      const pair = await Promise.all([
        carol.call(chatFoldersApi.create, { body: { name: `F${i}` } }),
        carol.call(chatFoldersApi.create, { body: { name: `F${i + 1}` } }),
      ]);
      expect(pair.map((r) => r.status)).toEqual([201, 201]);
    }
    const over = await Promise.all([
      carol.call(chatFoldersApi.create, { body: { name: "one more" } }),
      carol.call(chatFoldersApi.create, { body: { name: "and another" } }),
    ]);
    expect(over.map((r) => r.status)).toEqual([400, 400]);
    expect(over[0]?.error.message).toBe("You can have at most 200 folders. Delete one you no longer need to make another.");
    expect(await folders(carol)).toHaveLength(MAX_FOLDERS_PER_USER);
  });

  it("deletes a folder moving its chats out: they stay, in no folder", async () => {
    const made = await folder(alice, "Move me");
    const a = await chatWith(alice, "Kept one");
    const b = await chatWith(alice, "Kept two");
    for (const id of [a, b]) expect((await patchChat(alice, id, { folderId: made.id })).status).toBe(200);
    // Counted per folder: both chats, whatever the ids of the folder and the chats.
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ chatCount: 2 });
    expect((await rename(alice, made.id, "Move me")).data).toMatchObject({ chatCount: 2 });
    expect((await del(alice, made.id, "move")).status).toBe(204);
    for (const id of [a, b]) expect((await getChat(alice, id)).data).toMatchObject({ folderId: null });
    expect((await folders(alice)).some((f) => f.id === made.id)).toBe(false);
    expect((await del(alice, made.id, "move")).status).toBe(404);
  });

  it("deletes a folder with its chats, and only those", async () => {
    const made = await folder(alice, "Delete me");
    const inside = await chatWith(alice, "Goes away");
    const outside = await chatWith(alice, "Stays here");
    expect((await patchChat(alice, inside, { folderId: made.id, pinned: true })).status).toBe(200);
    expect((await del(alice, made.id, "delete")).status).toBe(204);
    expect((await getChat(alice, inside)).status).toBe(404);
    expect((await getChat(alice, outside)).status).toBe(200);
  });
});

describe("moving and pinning chats", () => {
  it("moves a chat into a folder and out again, without changing its place by activity", async () => {
    const made = await folder(alice, "Trips");
    const chat = await chatWith(alice, "Lisbon");
    const before = (await getChat(alice, chat)).data;
    const moved = await patchChat(alice, chat, { folderId: made.id });
    expect(moved.status).toBe(200);
    expect(moved.data).toMatchObject({ folderId: made.id, updatedAt: before.updatedAt });
    expect((await list(alice, { folderId: String(made.id) })).map((c) => c.id)).toEqual([chat]);
    expect((await list(alice, { folderId: "none" })).map((c) => c.id)).not.toContain(chat);

    expect((await patchChat(alice, chat, { folderId: null })).data).toMatchObject({ folderId: null });
    expect(await list(alice, { folderId: String(made.id) })).toEqual([]);
    expect((await list(alice, { folderId: "none" })).map((c) => c.id)).toContain(chat);
  });

  it("lists a folder's chats most recent first, paged", async () => {
    const made = await folder(alice, "Paged");
    const ids: number[] = [];
    for (const title of ["p1", "p2", "p3"]) {
      const id = await chatWith(alice, title);
      expect((await patchChat(alice, id, { folderId: made.id })).status).toBe(200);
      ids.push(id);
    }
    const first = await page(alice, { folderId: String(made.id), limit: 2 });
    expect(first.items.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const cursor = first.nextCursor;
    expect(typeof cursor).toBe("string");
    const second = await list(alice, { folderId: String(made.id), limit: 2, cursor: cursor ?? undefined });
    expect(second.map((c) => c.id)).toEqual([ids[0]]);
  });

  it("fills each page of chats in no folder with listed chats only, however many newer chats have no message yet", async () => {
    const { client: carol } = await registerAndSignIn(t.app);
    const listed: number[] = [];
    for (const title of ["c1", "c2", "c3"]) listed.push(await chatWith(carol, title));
    // Newer than every listed chat, but without a message: never listed, and never taking a place on a page.
    for (const title of ["e1", "e2", "e3"]) await newChat(carol, { title });
    const first = await page(carol, { folderId: "none", pinned: "false", limit: 2 });
    expect(first.items.map((c) => c.id)).toEqual([listed[2], listed[1]]);
    const cursor = first.nextCursor;
    expect(typeof cursor).toBe("string");
    const second = await carol.call(chatsApi.list, { query: { folderId: "none", pinned: "false", limit: 2, cursor: cursor ?? undefined } });
    expect(second.data.items.map((c) => c.id)).toEqual([listed[0]]);
    expect(second.headers["x-next-cursor"]).toBeUndefined();
    expect((await list(carol, { limit: 10 })).map((c) => c.id)).toEqual([...listed].reverse());
  });

  it("lists a chat, counts it in its folder and finds it by title once it has a message, whichever way the message was written", async () => {
    const { client: dave, user } = await registerAndSignIn(t.app);
    const made = await folder(dave, "Filed");
    const empty = await newChat(dave, { title: "Zebra empty" });
    const written = await newChat(dave, { title: "Zebra written" });
    for (const id of [empty.id, written.id]) expect((await patchChat(dave, id, { folderId: made.id })).status).toBe(200);
    const listedIds = async () => (await list(dave, { folderId: String(made.id) })).map((c) => c.id);
    const found = async () => (await dave.call(chatsApi.search, { query: { q: "zebra" } })).data.map((hit) => hit.id);
    expect((await folders(dave)).find((f) => f.id === made.id)).toMatchObject({ chatCount: 0 });
    expect(await listedIds()).toEqual([]);
    expect(await found()).toEqual([]);
    // A message written by a statement of its own, as an import or a restore writes them: the database marks the chat.
    await t.database.db.execute(
      sql`insert into messages (chat_id, user_id, role, content) values (${written.id}, ${user.id}, 'user', 'written directly')`,
    );
    expect((await folders(dave)).find((f) => f.id === made.id)).toMatchObject({ chatCount: 1 });
    expect(await listedIds()).toEqual([written.id]);
    expect(await found()).toEqual([written.id]);
    // Through the API, the other chat too.
    expect((await dave.call(chatsApi.addMessage, { params: { id: empty.id }, body: { content: "hello", role: "user" } })).status).toBe(201);
    expect((await folders(dave)).find((f) => f.id === made.id)).toMatchObject({ chatCount: 2 });
    expect((await listedIds()).sort()).toEqual([empty.id, written.id].sort());
  });

  it("pins and unpins: pinned chats most recently pinned first, left out of the unpinned sections", async () => {
    const made = await folder(alice, "Pins");
    const older = await chatWith(alice, "Pinned first");
    const newer = await chatWith(alice, "Pinned second");
    const inFolder = await chatWith(alice, "Pinned in folder");
    expect((await patchChat(alice, inFolder, { folderId: made.id })).status).toBe(200);
    for (const id of [newer, older, inFolder]) {
      const res = await patchChat(alice, id, { pinned: true });
      expect(res.data).toMatchObject({ id, pinned: true });
    }
    expect((await list(alice, { pinned: "true" })).map((c) => c.id)).toEqual([inFolder, older, newer]);
    const pinnedPage = await page(alice, { pinned: "true", limit: 1 });
    const next = await list(alice, { pinned: "true", limit: 2, cursor: pinnedPage.nextCursor ?? undefined });
    expect(next.map((c) => c.id)).toEqual([older, newer]);

    const unfiled = (await list(alice, { folderId: "none", pinned: "false" })).map((c) => c.id);
    expect(unfiled).not.toContain(older);
    expect(unfiled).not.toContain(newer);
    expect((await list(alice, { folderId: String(made.id), pinned: "false" })).map((c) => c.id)).toEqual([]);
    // Every listed chat, as before: pinned ones included.
    expect((await list(alice)).map((c) => c.id)).toEqual(expect.arrayContaining([older, newer, inFolder]));

    expect((await patchChat(alice, older, { pinned: false })).data).toMatchObject({ pinned: false });
    expect((await list(alice, { pinned: "true" })).map((c) => c.id)).toEqual([inFolder, newer]);
    expect((await list(alice, { folderId: "none", pinned: "false" })).map((c) => c.id)).toContain(older);
  });

  it("refuses bad input with a message", async () => {
    const chat = await chatWith(alice, "Bad input");
    for (const [body, message] of [
      [{ pinned: "yes" }, "Pinned must be true or false"],
      [{ folderId: "abc" }, undefined],
      [{ folderId: -1 }, undefined],
    ] as const) {
      const res = await alice.call(chatsApi.update, { params: { id: chat }, body: {} }, { rawBody: body });
      expect(res.status).toBe(400);
      if (message) expect(res.error.message).toBe(message);
      else expect(res.error.errors).toHaveProperty("folderId");
    }
    // Query values the contract's types do not allow: sent raw.
    for (const query of ["?folderId=abc", "?pinned=maybe"]) {
      const res = await alice.get(`/api/chats${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/folderId must be a folder id or none|pinned must be true or false/);
    }
    expect((await alice.call(chatsApi.list, { query: { folderId: "999999" } })).status).toBe(404);
  });
});

describe("search limited to a folder", () => {
  it("finds only the folder's chats", async () => {
    const made = await folder(alice, "Recipes");
    const inside = await chatWith(alice, "Pumpkin soup", "zucchini and pumpkin");
    const outside = await chatWith(alice, "Pumpkin pie", "pumpkin dessert");
    expect((await patchChat(alice, inside, { folderId: made.id })).status).toBe(200);
    const all = await alice.ok(chatsApi.search, { query: { q: "pumpkin" } });
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([inside, outside]));
    const scoped = await alice.call(chatsApi.search, { query: { q: "pumpkin", folderId: String(made.id) } });
    expect(scoped.status).toBe(200);
    expect(scoped.data.map((c) => [c.id, c.folderId])).toEqual([[inside, made.id]]);
    expect(await alice.ok(chatsApi.search, { query: { q: "dessert", folderId: String(made.id) } })).toEqual([]);
    const bad = await alice.call(chatsApi.search, { query: { q: "pumpkin", folderId: "zero" } });
    expect(bad.status).toBe(400);
  });
});

describe("ownership and sign-in", () => {
  it("answers 404 for another user's folder on every folder endpoint, and changes nothing", async () => {
    const own = await folder(alice, "Private");
    const chat = await chatWith(alice, "Secret plans", "secret");
    expect((await patchChat(alice, chat, { folderId: own.id })).status).toBe(200);
    const bobChat = await chatWith(bob, "Bob's", "secret");

    const renamed = await rename(bob, own.id, "Mine now");
    expect(renamed.status).toBe(404);
    expect(renamed.error.message).toBe("Folder not found");
    for (const mode of ["move", "delete"] as const) expect((await del(bob, own.id, mode)).status).toBe(404);
    expect((await bob.call(chatsApi.list, { query: { folderId: String(own.id) } })).status).toBe(404);
    expect((await bob.call(chatsApi.search, { query: { q: "secret", folderId: String(own.id) } })).status).toBe(404);
    const moved = await patchChat(bob, bobChat, { folderId: own.id });
    expect(moved.status).toBe(404);
    expect(moved.error.message).toBe("Folder not found");
    expect((await getChat(bob, bobChat)).data).toMatchObject({ folderId: null });
    // Nor can Bob move or pin Alice's chat.
    expect((await patchChat(bob, chat, { folderId: null })).status).toBe(404);
    expect((await patchChat(bob, chat, { pinned: true })).status).toBe(404);

    expect((await folders(alice)).find((f) => f.id === own.id)).toMatchObject({ name: "Private", chatCount: 1 });
    expect((await getChat(alice, chat)).data).toMatchObject({ folderId: own.id, pinned: false });
  });

  it("answers 401 signed out", async () => {
    const anonymous = new CookieClient(t.app);
    const made = await folder(alice, "Anyone?");
    for (const res of [
      await anonymous.call(chatFoldersApi.list, {}),
      await anonymous.call(chatFoldersApi.create, { body: { name: "x" } }),
      await rename(anonymous, made.id, "x"),
      await del(anonymous, made.id, "delete"),
      await anonymous.call(chatsApi.list, { query: { folderId: String(made.id) } }),
    ]) {
      expect(res.status).toBe(401);
    }
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ name: "Anyone?" });
  });
});
