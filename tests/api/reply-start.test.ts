// Decision 025: a reply starts in one statement, the database's start_reply. What it returns is what a select
// gives (the start event's messages are the stored rows), a refusal writes nothing, and the leaf and allowance
// rules it applies are the ones every other reader uses.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numbersOfSlot, readAiSlot } from "../../src/server/ai/usage-limits.js";
import { messages } from "../../src/server/db/schema/index.js";
import { startRefusal } from "../../src/server/lib/db-errors.js";
import { messageRowFromJson, toMessage } from "../../src/server/modules/chat/chat-view.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CallInput } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
let userId: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const accounts = await adminAndUser(t.app);
  user = accounts.user;
  userId = accounts.userId;
  await pointPlatformAt(accounts.admin, "openai", fake);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const reply = (chatId: number, body: CallInput<typeof chatsApi.reply>["body"]) =>
  user.call(chatsApi.reply, { params: { id: chatId }, body });
const rowsOf = (chatId: number) => t.database.db.select().from(messages).where(eq(messages.chatId, chatId)).orderBy(messages.id);

describe("a reply's start in the database", () => {
  it("answers with the rows it stored, as a select reads them", async () => {
    const chat = await newChat(user);
    const res = await reply(chat.id, { content: "hello there", attachments: [{ name: "a.txt", content: "abc" }] });
    expect(res.status).toBe(200);
    const start = parseEvents(res.response.body).find((event) => event.type === "start");
    if (start?.type !== "start" || !start.userMessage) throw new Error(`no start event: ${res.response.body.slice(0, 300)}`);
    const [userRow, replyRow] = await rowsOf(chat.id);
    if (!userRow || !replyRow) throw new Error("rows missing");
    expect(start.userMessage).toEqual(toMessage(userRow));
    // The reply's row has changed since (its text, its end); what the start said of it is its first state.
    expect(start.assistantMessage).toMatchObject({ id: replyRow.id, parentId: userRow.id, role: "assistant", chatId: chat.id });
    // A pasted file (not from the library, issue 30): no file id, type or kind, never missing.
    expect(start.userMessage.attachments).toEqual([{ name: "a.txt", size: 3, fileId: null, type: null, kind: null, missing: false }]);
  });

  it("maps a row given as JSON exactly as Drizzle's select maps it", async () => {
    const chat = await newChat(user);
    expect((await reply(chat.id, { content: "to map" })).status).toBe(200);
    for (const row of await rowsOf(chat.id)) {
      const json = await t.database.db.execute<{ j: Record<string, unknown> }>(
        sql`select to_jsonb(m) - 'content_search' as j from messages m where m.id = ${row.id}`,
      );
      const j = json.rows[0]?.j;
      if (!j) throw new Error("no row");
      expect(messageRowFromJson(j)).toEqual({ ...row, contentSearch: null });
    }
  });

  it("writes nothing when it refuses: another tab moved the leaf shown", async () => {
    const chat = await newChat(user);
    expect((await reply(chat.id, { content: "first" })).status).toBe(200);
    const before = await rowsOf(chat.id);
    const counted = async () => numbersOfSlot(await readAiSlot(t.database.db, userId, 3))?.messagesToday;
    const sentToday = await counted();
    expect(sentToday).toBeGreaterThan(0);
    // As a send does, with a leaf that is no longer the one shown.
    const started = t.database.db.execute(
      sql`select start_reply(${userId}, ${chat.id}, 3, true, ${before[0]?.id ?? null}::int, ${before[0]?.id ?? null}::int,
        'late'::text, '[]'::jsonb, 'openai', 'gpt-4o-mini', null, 'test', null, 100, 10) as r`,
    );
    const refused = await started.then(
      () => null,
      (error: unknown) => error,
    );
    expect(startRefusal(refused)).toBe("changed");
    expect(await rowsOf(chat.id)).toEqual(before);
    // The refused start counted no message for today.
    expect(await counted()).toBe(sentToday);
  });
});
