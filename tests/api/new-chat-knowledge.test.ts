// Decision 066 (issue 42 item 8): a new chat takes its collections in the call that creates it, so its first question
// is already answered from them. The rules are those of attaching collections later (PATCH /api/chats/:id): each must
// be the caller's (another's or a missing one: 404 "Collection not found", and no chat is stored), a token needs
// files:read, and the signed-out are refused before anything.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chats } from "../../src/server/db/schema/index.js";
import { TOKEN_MESSAGES, tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import type { TokenScope } from "../../src/shared/contracts/endpoint.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { seedCollection, seedFile } from "../helpers/library-seed.js";

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
let userId: number;
let mine: number;
let alsoMine: number;
let theirs: number;

const HANDBOOK = "Holidays: quorble days are paid twice a year.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const setup = await adminAndUser(t.app);
  ({ user, userId } = setup);
  await pointPlatformAt(setup.admin, "openai", fake);
  const other = await registerAndSignIn(t.app);
  const db = t.database.db;
  mine = await seedCollection(db, userId, "Handbook");
  alsoMine = await seedCollection(db, userId, "Empty shelf");
  theirs = await seedCollection(db, other.user.id, "Their handbook");
  await seedFile(db, { userId, name: "handbook.md", collectionId: mine, chunks: [{ content: HANDBOOK }] });
  await seedFile(db, { userId: other.user.id, name: "theirs.md", collectionId: theirs, chunks: [{ content: "Quorble secrets." }] });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type CreateChatBody = CallInput<typeof chatsApi.create>["body"];

/** How many chats the user has stored (listed or not: a chat without messages is not listed). */
const storedChats = async () => (await t.database.db.select({ id: chats.id }).from(chats).where(eq(chats.userId, userId))).length;

const refusedAsMissing = (answer: { status: number; response: { body: string }; error: { message: string } }) => {
  expect(answer.status, answer.response.body).toBe(404);
  expect(answer.error.message).toBe("Collection not found");
};
const createChat = (body: CreateChatBody) => user.call(chatsApi.create, { body });

describe("a new chat created with its collections", () => {
  it("attaches the caller's own collections in the create call, and its first reply cites them", async () => {
    const created = await createChat({ collectionIds: [alsoMine, mine, mine] });
    expect(created.status, created.response.body).toBe(201);
    const chat = created.data;
    // Repeats dropped, in id order, as PATCH answers them.
    expect(chat.collectionIds).toEqual([mine, alsoMine].sort((a, b) => a - b));
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).collectionIds).toEqual(chat.collectionIds);

    // The first message is the only other request: its reply is given the collection's passage and cites it.
    const reply = await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "How often are quorble days paid? [1]" } });
    expect(reply.status, reply.response.body).toBe(200);
    const done = parseEvents(reply.response.body).at(-1);
    if (done?.type !== "done") throw new Error(`no done event: ${reply.response.body}`);
    expect(done.assistantMessage.citations.map((c) => [c.n, c.fileName, c.excerpt])).toEqual([[1, "handbook.md", HANDBOOK]]);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(HANDBOOK);
  });

  it("without collectionIds, or with [], the chat has none (as before)", async () => {
    for (const body of [{}, { collectionIds: [] }]) {
      const created = await createChat(body);
      expect(created.status, created.response.body).toBe(201);
      expect(created.data.collectionIds).toEqual([]);
    }
  });

  it("refuses another user's collection and a missing one with the attach route's 404, and stores no chat", async () => {
    const before = await storedChats();
    refusedAsMissing(await createChat({ collectionIds: [theirs] }));
    refusedAsMissing(await createChat({ collectionIds: [999_999] }));
    // One of them among the caller's own: the whole call is refused, nothing half made.
    refusedAsMissing(await createChat({ collectionIds: [mine, theirs] }));
    expect(await storedChats()).toBe(before);
    // The same words as attaching it to a stored chat.
    const chat = await user.ok(chatsApi.create, { body: {} });
    refusedAsMissing(await user.call(chatsApi.update, { params: { id: chat.id }, body: { collectionIds: [theirs] } }));
  });

  it("refuses bad input with a 400 and the signed-out with a 401", async () => {
    // Values the contract's type does not allow among them: each sent as it is.
    for (const collectionIds of [["one"], [0], [-3], [1.5], "1", Array.from({ length: 21 }, (_, i) => i + 1)]) {
      const answer = await user.call(chatsApi.create, { body: {} }, { rawBody: { collectionIds } });
      expect(answer.status, `${JSON.stringify(collectionIds)}: ${answer.response.body}`).toBe(400);
    }
    const before = await storedChats();
    const signedOut = await callApp(t.app, chatsApi.create, { body: { collectionIds: [mine] } });
    expect(signedOut.status, signedOut.response.body).toBe(401);
    expect(await storedChats()).toBe(before);
  });

  it("gives a token the collections only with files:read (decision 056)", async () => {
    const token = async (scopes: TokenScope[]) => {
      const made = await user.call(tokensApi.create, { body: { name: scopes.join(" "), expiresInDays: 7, scopes } });
      expect(made.status, made.response.body).toBe(201);
      return made.data.token;
    };
    const create = (bearer: string, body: CreateChatBody) =>
      callApp(t.app, chatsApi.create, { body }, { headers: { authorization: `Bearer ${bearer}` } });
    const chatOnly = await token(["chat"]);
    const before = await storedChats();
    const refused = await create(chatOnly, { collectionIds: [mine] });
    expect(refused.status, refused.response.body).toBe(403);
    expect(refused.error.message).toBe(TOKEN_MESSAGES.missingScope("files:read"));
    expect(await storedChats()).toBe(before);
    // A chat without collections stays open to it.
    expect((await create(chatOnly, {})).status).toBe(201);

    const withFiles = await token(["chat", "files:read"]);
    const allowed = await create(withFiles, { collectionIds: [mine] });
    expect(allowed.status, allowed.response.body).toBe(201);
    expect(allowed.data.collectionIds).toEqual([mine]);
    // files:read opens the caller's own library, never another's.
    refusedAsMissing(await create(withFiles, { collectionIds: [theirs] }));
  });
});
