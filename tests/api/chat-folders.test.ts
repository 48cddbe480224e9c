// Folders and pins: create, rename and delete folders (moving the chats out or deleting them too), move chats in
// and out, pin and unpin, the sidebar's sections and their order, search limited to a folder; owner-only
// everywhere (another user's folder is a 404), clear 400s, and 401 signed out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FOLDERS_PER_USER } from "../../src/shared/contracts/chat-folders.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat } from "../helpers/chat-setup.js";

type Folder = { id: number; name: string; chatCount: number };
type Chat = { id: number; title: string; folderId: number | null; pinned: boolean; updatedAt: string };

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

const del = (client: CookieClient, url: string) => client.request({ method: "DELETE", url });

async function chatWith(client: CookieClient, title: string, text = `about ${title}`) {
  const chat = await newChat(client, { title });
  expect((await client.post(`/api/chats/${chat.id}/messages`, { content: text, role: "user" })).statusCode).toBe(201);
  return chat.id;
}

async function folder(client: CookieClient, name: string): Promise<Folder> {
  const res = await client.post("/api/chat-folders", { name });
  expect(res.statusCode).toBe(201);
  return res.json() as Folder;
}

async function folders(client: CookieClient): Promise<Folder[]> {
  const res = await client.get("/api/chat-folders");
  expect(res.statusCode).toBe(200);
  return res.json() as Folder[];
}

async function list(client: CookieClient, query = ""): Promise<Chat[]> {
  const res = await client.get(`/api/chats${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as Chat[];
}

async function patchChat(client: CookieClient, id: number, body: Record<string, unknown>) {
  return client.patch(`/api/chats/${id}`, body);
}

describe("folders", () => {
  it("creates a folder with a trimmed name, lists it with its chat count, renames it", async () => {
    const made = await folder(alice, "  Work stuff  ");
    expect(made).toMatchObject({ name: "Work stuff", chatCount: 0 });
    const chat = await chatWith(alice, "Quarterly plan");
    expect((await patchChat(alice, chat, { folderId: made.id })).json()).toMatchObject({ id: chat, folderId: made.id });
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ name: "Work stuff", chatCount: 1 });

    const renamed = await alice.patch(`/api/chat-folders/${made.id}`, { name: " Work " });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: made.id, name: "Work", chatCount: 1 });
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
      const res = await alice.post("/api/chat-folders", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const made = await folder(alice, "Renamable");
    const res = await alice.patch(`/api/chat-folders/${made.id}`, { name: "" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Folder name is required");
    expect((await del(alice, `/api/chat-folders/${made.id}`)).json().message).toMatch(/Choose whether the folder's chats move out/);
    expect((await del(alice, `/api/chat-folders/${made.id}?chats=keep`)).statusCode).toBe(400);
    expect((await del(alice, `/api/chat-folders/${made.id}?chats=move`)).statusCode).toBe(204);
  });

  it(`stops at ${MAX_FOLDERS_PER_USER} folders per user, with a message that says what to do`, async () => {
    const carol = (await registerAndSignIn(t.app)).client;
    // Two at a time: the cap holds even when creates race.
    for (let i = 0; i < MAX_FOLDERS_PER_USER; i += 2) {
      const pair = await Promise.all([
        carol.post("/api/chat-folders", { name: `F${i}` }),
        carol.post("/api/chat-folders", { name: `F${i + 1}` }),
      ]);
      expect(pair.map((r) => r.statusCode)).toEqual([201, 201]);
    }
    const over = await Promise.all([
      carol.post("/api/chat-folders", { name: "one more" }),
      carol.post("/api/chat-folders", { name: "and another" }),
    ]);
    expect(over.map((r) => r.statusCode)).toEqual([400, 400]);
    expect(over[0]?.json().message).toBe("You can have at most 200 folders. Delete one you no longer need to make another.");
    expect(await folders(carol)).toHaveLength(MAX_FOLDERS_PER_USER);
  });

  it("deletes a folder moving its chats out: they stay, in no folder", async () => {
    const made = await folder(alice, "Move me");
    const a = await chatWith(alice, "Kept one");
    const b = await chatWith(alice, "Kept two");
    for (const id of [a, b]) expect((await patchChat(alice, id, { folderId: made.id })).statusCode).toBe(200);
    // Counted per folder: both chats, whatever the ids of the folder and the chats.
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ chatCount: 2 });
    expect((await alice.patch(`/api/chat-folders/${made.id}`, { name: "Move me" })).json()).toMatchObject({ chatCount: 2 });
    expect((await del(alice, `/api/chat-folders/${made.id}?chats=move`)).statusCode).toBe(204);
    for (const id of [a, b]) expect((await alice.get(`/api/chats/${id}`)).json()).toMatchObject({ folderId: null });
    expect((await folders(alice)).some((f) => f.id === made.id)).toBe(false);
    expect((await del(alice, `/api/chat-folders/${made.id}?chats=move`)).statusCode).toBe(404);
  });

  it("deletes a folder with its chats, and only those", async () => {
    const made = await folder(alice, "Delete me");
    const inside = await chatWith(alice, "Goes away");
    const outside = await chatWith(alice, "Stays here");
    expect((await patchChat(alice, inside, { folderId: made.id, pinned: true })).statusCode).toBe(200);
    expect((await del(alice, `/api/chat-folders/${made.id}?chats=delete`)).statusCode).toBe(204);
    expect((await alice.get(`/api/chats/${inside}`)).statusCode).toBe(404);
    expect((await alice.get(`/api/chats/${outside}`)).statusCode).toBe(200);
  });
});

describe("moving and pinning chats", () => {
  it("moves a chat into a folder and out again, without changing its place by activity", async () => {
    const made = await folder(alice, "Trips");
    const chat = await chatWith(alice, "Lisbon");
    const before = (await alice.get(`/api/chats/${chat}`)).json() as Chat;
    const moved = await patchChat(alice, chat, { folderId: made.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ folderId: made.id, updatedAt: before.updatedAt });
    expect((await list(alice, `?folderId=${made.id}`)).map((c) => c.id)).toEqual([chat]);
    expect((await list(alice, "?folderId=none")).map((c) => c.id)).not.toContain(chat);

    expect((await patchChat(alice, chat, { folderId: null })).json()).toMatchObject({ folderId: null });
    expect(await list(alice, `?folderId=${made.id}`)).toEqual([]);
    expect((await list(alice, "?folderId=none")).map((c) => c.id)).toContain(chat);
  });

  it("lists a folder's chats most recent first, paged", async () => {
    const made = await folder(alice, "Paged");
    const ids: number[] = [];
    for (const title of ["p1", "p2", "p3"]) {
      const id = await chatWith(alice, title);
      expect((await patchChat(alice, id, { folderId: made.id })).statusCode).toBe(200);
      ids.push(id);
    }
    const first = await alice.get(`/api/chats?folderId=${made.id}&limit=2`);
    expect((first.json() as Chat[]).map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const cursor = first.headers["x-next-cursor"];
    expect(typeof cursor).toBe("string");
    const second = await list(alice, `?folderId=${made.id}&limit=2&cursor=${cursor}`);
    expect(second.map((c) => c.id)).toEqual([ids[0]]);
  });

  it("fills each page of chats in no folder with listed chats only, however many newer chats have no message yet", async () => {
    const { client: carol } = await registerAndSignIn(t.app);
    const listed: number[] = [];
    for (const title of ["c1", "c2", "c3"]) listed.push(await chatWith(carol, title));
    // Newer than every listed chat, but without a message: never listed, and never taking a place on a page.
    for (const title of ["e1", "e2", "e3"]) await newChat(carol, { title });
    const first = await carol.get("/api/chats?folderId=none&pinned=false&limit=2");
    expect((first.json() as Chat[]).map((c) => c.id)).toEqual([listed[2], listed[1]]);
    const cursor = first.headers["x-next-cursor"];
    expect(typeof cursor).toBe("string");
    const second = await carol.get(`/api/chats?folderId=none&pinned=false&limit=2&cursor=${cursor}`);
    expect((second.json() as Chat[]).map((c) => c.id)).toEqual([listed[0]]);
    expect(second.headers["x-next-cursor"]).toBeUndefined();
    expect((await list(carol, "?limit=10")).map((c) => c.id)).toEqual([...listed].reverse());
  });

  it("pins and unpins: pinned chats most recently pinned first, left out of the unpinned sections", async () => {
    const made = await folder(alice, "Pins");
    const older = await chatWith(alice, "Pinned first");
    const newer = await chatWith(alice, "Pinned second");
    const inFolder = await chatWith(alice, "Pinned in folder");
    expect((await patchChat(alice, inFolder, { folderId: made.id })).statusCode).toBe(200);
    for (const id of [newer, older, inFolder]) {
      const res = await patchChat(alice, id, { pinned: true });
      expect(res.json()).toMatchObject({ id, pinned: true });
    }
    expect((await list(alice, "?pinned=true")).map((c) => c.id)).toEqual([inFolder, older, newer]);
    const pinnedPage = await alice.get("/api/chats?pinned=true&limit=1");
    const next = await list(alice, `?pinned=true&limit=2&cursor=${pinnedPage.headers["x-next-cursor"]}`);
    expect(next.map((c) => c.id)).toEqual([older, newer]);

    const unfiled = (await list(alice, "?folderId=none&pinned=false")).map((c) => c.id);
    expect(unfiled).not.toContain(older);
    expect(unfiled).not.toContain(newer);
    expect((await list(alice, `?folderId=${made.id}&pinned=false`)).map((c) => c.id)).toEqual([]);
    // Every listed chat, as before: pinned ones included.
    expect((await list(alice)).map((c) => c.id)).toEqual(expect.arrayContaining([older, newer, inFolder]));

    expect((await patchChat(alice, older, { pinned: false })).json()).toMatchObject({ pinned: false });
    expect((await list(alice, "?pinned=true")).map((c) => c.id)).toEqual([inFolder, newer]);
    expect((await list(alice, "?folderId=none&pinned=false")).map((c) => c.id)).toContain(older);
  });

  it("refuses bad input with a message", async () => {
    const chat = await chatWith(alice, "Bad input");
    for (const [body, message] of [
      [{ pinned: "yes" }, "Pinned must be true or false"],
      [{ folderId: "abc" }, undefined],
      [{ folderId: -1 }, undefined],
    ] as const) {
      const res = await patchChat(alice, chat, body);
      expect(res.statusCode).toBe(400);
      if (message) expect(res.json().message).toBe(message);
      else expect(res.json().errors).toHaveProperty("folderId");
    }
    for (const query of ["?folderId=abc", "?pinned=maybe"]) {
      const res = await alice.get(`/api/chats${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/folderId must be a folder id or none|pinned must be true or false/);
    }
    expect((await alice.get("/api/chats?folderId=999999")).statusCode).toBe(404);
  });
});

describe("search limited to a folder", () => {
  it("finds only the folder's chats", async () => {
    const made = await folder(alice, "Recipes");
    const inside = await chatWith(alice, "Pumpkin soup", "zucchini and pumpkin");
    const outside = await chatWith(alice, "Pumpkin pie", "pumpkin dessert");
    expect((await patchChat(alice, inside, { folderId: made.id })).statusCode).toBe(200);
    const all = (await alice.get("/api/chats/search?q=pumpkin")).json() as Chat[];
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([inside, outside]));
    const scoped = await alice.get(`/api/chats/search?q=pumpkin&folderId=${made.id}`);
    expect(scoped.statusCode).toBe(200);
    expect((scoped.json() as Chat[]).map((c) => [c.id, c.folderId])).toEqual([[inside, made.id]]);
    expect((await alice.get(`/api/chats/search?q=dessert&folderId=${made.id}`)).json()).toEqual([]);
    const bad = await alice.get("/api/chats/search?q=pumpkin&folderId=zero");
    expect(bad.statusCode).toBe(400);
  });
});

describe("ownership and sign-in", () => {
  it("answers 404 for another user's folder on every folder endpoint, and changes nothing", async () => {
    const own = await folder(alice, "Private");
    const chat = await chatWith(alice, "Secret plans", "secret");
    expect((await patchChat(alice, chat, { folderId: own.id })).statusCode).toBe(200);
    const bobChat = await chatWith(bob, "Bob's", "secret");

    const renamed = await bob.patch(`/api/chat-folders/${own.id}`, { name: "Mine now" });
    expect(renamed.statusCode).toBe(404);
    expect(renamed.json().message).toBe("Folder not found");
    for (const mode of ["move", "delete"]) expect((await del(bob, `/api/chat-folders/${own.id}?chats=${mode}`)).statusCode).toBe(404);
    expect((await bob.get(`/api/chats?folderId=${own.id}`)).statusCode).toBe(404);
    expect((await bob.get(`/api/chats/search?q=secret&folderId=${own.id}`)).statusCode).toBe(404);
    const moved = await patchChat(bob, bobChat, { folderId: own.id });
    expect(moved.statusCode).toBe(404);
    expect(moved.json().message).toBe("Folder not found");
    expect((await bob.get(`/api/chats/${bobChat}`)).json()).toMatchObject({ folderId: null });
    // Nor can Bob move or pin Alice's chat.
    expect((await patchChat(bob, chat, { folderId: null })).statusCode).toBe(404);
    expect((await patchChat(bob, chat, { pinned: true })).statusCode).toBe(404);

    expect((await folders(alice)).find((f) => f.id === own.id)).toMatchObject({ name: "Private", chatCount: 1 });
    expect((await alice.get(`/api/chats/${chat}`)).json()).toMatchObject({ folderId: own.id, pinned: false });
  });

  it("answers 401 signed out", async () => {
    const anonymous = new CookieClient(t.app);
    const made = await folder(alice, "Anyone?");
    for (const res of [
      await anonymous.get("/api/chat-folders"),
      await anonymous.post("/api/chat-folders", { name: "x" }),
      await anonymous.patch(`/api/chat-folders/${made.id}`, { name: "x" }),
      await del(anonymous, `/api/chat-folders/${made.id}?chats=delete`),
      await anonymous.get(`/api/chats?folderId=${made.id}`),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    expect((await folders(alice)).find((f) => f.id === made.id)).toMatchObject({ name: "Anyone?" });
  });
});
