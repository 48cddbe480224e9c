// Issue 15 (decision 020), decision 057: a reply's provider request is built while its rows are written and leaves once
// they commit, so no piece reaches the browser before they do, and a start that fails to commit never reaches the
// provider (tests/api/reply-hold-first.test.ts: every refusal of the start).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi, type StreamEvent } from "../../src/shared/contracts/chat.js";
import { errorBodySchema } from "../../src/shared/contracts/errors.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, pointPlatformAt } from "../helpers/chat-setup.js";
import { readEvents } from "../helpers/sse-reader.js";
import { usingPostgres } from "../helpers/test-database.js";

/** Inserting the user message takes this long (a trigger): long enough to see whether the provider is asked meanwhile. */
const SLOW_INSERT_MS = 400;

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
let base: string;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake({ chunkDelayMs: 5 });
  // A long first-chunk timeout: a call still open after a failed insert would not be closed by it.
  t = await buildTestApp({ env: { AI_FIRST_CHUNK_TIMEOUT_MS: "60000", AI_CHUNK_TIMEOUT_MS: "60000" } });
  const { admin, user: member } = await adminAndUser(t.app);
  user = member;
  await pointPlatformAt(admin, "openai", fake);
  // Test-only behaviour in the database, not in the code under test: a slow insert, and a refused one.
  await t.database.db.execute(
    sql.raw(`create or replace function test_message_insert() returns trigger language plpgsql as $$
      begin
        if new.content like '%#delay-insert%' then perform pg_sleep(${SLOW_INSERT_MS / 1000}); end if;
        if new.content like '%#refuse-insert%' then raise exception 'refused by the test'; end if;
        return new;
      end $$`),
  );
  await t.database.db.execute(
    sql.raw("create trigger test_message_insert before insert on messages for each row execute function test_message_insert()"),
  );
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A reply sent over a real connection: the contract's request (`requestFor`), sent by fetch. */
function reply(chatId: number, content: string) {
  const { method, url, payload } = requestFor(chatsApi.reply, { params: { id: chatId }, body: { content } });
  if (typeof url !== "string") throw new Error("a request with a path was expected");
  return fetch(`${base}${url}`, {
    method,
    headers: { "content-type": "application/json", cookie: user.sessionCookie ?? "" },
    body: JSON.stringify(payload),
  });
}

describe("a reply asks the provider once its rows are written", () => {
  // On PostgreSQL only: PGlite runs the database in this thread, so a sleeping insert holds everything back, the
  // provider's request (which would be asked meanwhile) and this test's look at the stand-in alike.
  if (usingPostgres())
    it("the provider is asked only once the rows commit, and no piece is relayed before they do", async () => {
      const chat = await newChat(user);
      // A first reply loads the provider's SDK, so the one measured has nothing to wait for but its start.
      await readEvents(await reply((await newChat(user)).id, "warm up"), (e) => e.type === "done");
      const asked = fake.requests.length;
      const started = performance.now();
      const response = reply(chat.id, "overlap #delay-insert");
      // While the insert is still sleeping in its trigger, the provider has been asked nothing.
      await new Promise((r) => setTimeout(r, SLOW_INSERT_MS * 0.75));
      expect(fake.requests.length).toBe(asked);

      let firstDeltaAt = 0;
      const events = await readEvents(await response, (event: StreamEvent) => {
        if (event.type === "delta" && !firstDeltaAt) firstDeltaAt = performance.now() - started;
        return event.type === "done";
      });
      // Asked once the rows committed; the first piece came after the commit.
      expect(fake.requests.length).toBe(asked + 1);
      expect(firstDeltaAt).toBeGreaterThanOrEqual(SLOW_INSERT_MS);
      expect(events[0]).toMatchObject({ type: "start", userMessage: { content: "overlap #delay-insert" } });
      expect(events.at(-1)).toMatchObject({
        type: "done",
        assistantMessage: { status: "complete", content: "Echo: overlap #delay-insert" },
      });
    });

  it("rows that fail to commit never reach the provider, store nothing and leave the chat usable", async () => {
    const chat = await newChat(user);
    const asked = fake.requests.length;
    // #hang-start: the stand-in holds the request open until the client goes away.
    const refused = await reply(chat.id, "#refuse-insert #hang-start");
    expect(refused.status).toBe(500);
    expect(errorBodySchema.parse(await refused.json()).message).toBe("Something went wrong on our side. Please try again in a moment.");
    // Never asked, and nothing left open: the call built meanwhile was cancelled, not left to its 60 s first-chunk timeout.
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests.length - asked).toBe(0);
    for (let i = 0; i < 100 && fake.inFlight() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.inFlight()).toBe(0);
    expect((await user.ok(chatsApi.messages, { params: { id: chat.id } })).items).toEqual([]);

    const next = await reply(chat.id, "after the refusal");
    const events = await readEvents(next, (event) => event.type === "done");
    expect(events.at(-1)).toMatchObject({ type: "done", assistantMessage: { status: "complete", content: "Echo: after the refusal" } });
  });

  it("a refusal known before the call (a reply still being written) never asks the provider", async () => {
    const chat = await newChat(user);
    const first = reply(chat.id, "#slow first");
    const firstEvents = readEvents(await first, (event) => event.type === "done");
    for (let i = 0; i < 200 && fake.inFlight() === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const asked = fake.requests.length;
    const second = await reply(chat.id, "second");

    expect(second.status).toBe(409);
    expect(fake.requests.length).toBe(asked);
    await firstEvents;
  });
});
