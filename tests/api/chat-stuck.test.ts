// No reply or course run is left "streaming"/"running" (issue 14): a NUL from the provider is dropped, a save the
// database refuses ends the reply (and the run) as soon as it answers again, a bad row never stops a start or the
// sweep, Stop ends a reply nobody writes, and racing sends and regenerates leave one reply per message shown.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.js";
import { SAVE_FAILED, STOPPED_BY_USER } from "../../src/server/modules/chat/generation/generation-manager.js";
import { PROGRESS_NOT_SAVED } from "../../src/server/modules/courses/ai/generation-runner.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { courseAiApi, coursesApi } from "../../src/shared/contracts/courses.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

type Row = { id: number; role: string; content: string; status: string; error: string | null };

let t: TestApp;
let fake: FakeProvider;
let relay: Server;
let admin: CookieClient;
let user: CookieClient;
let userId: number;

/**
 * The provider's answer as it travels to the app, with two words swapped for what a provider may really send:
 * `NULMARK` becomes an escaped NUL and `LONEMARK` half a surrogate pair (the stand-in in tests/fakes answers the rest).
 */
function startRelay(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      // The app gives up on a call (Stop, a timeout): so does the relay.
      const gone = new AbortController();
      res.on("close", () => gone.abort());
      try {
        const upstream = await fetch(`${target}${req.url?.replace(/^\/v1/, "")}`, {
          method: req.method,
          headers: { "content-type": "application/json", authorization: String(req.headers.authorization ?? "") },
          body: chunks.length ? Buffer.concat(chunks) : undefined,
          signal: gone.signal,
        });
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
        const decoder = new TextDecoder();
        const reader = upstream.body?.getReader();
        for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
          res.write(decoder.decode(part.value, { stream: true }).replaceAll("NULMARK", "\\u0000").replaceAll("LONEMARK", "\\ud800"));
        }
        res.end();
      } catch {
        res.destroy();
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowsOf = async (chatId: number) =>
  (await t.database.db.execute(sql`select id, role, content, status, error from messages where chat_id = ${chatId} order by id`))
    .rows as Row[];
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  for (const end = Date.now() + ms; ; await sleep(100)) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
  }
}

/** The database refuses to end the replies of one chat (or to touch one course run) until `allow()`. */
async function refuse(table: "messages" | "course_generation_runs", column: "chat_id" | "course_id", id: number) {
  const name = `refuse_${table}_${id}`;
  const condition = table === "messages" ? "old.status = 'streaming' and new.status <> 'streaming'" : "true";
  await t.database.db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin
      if old.${column} = ${id} and ${condition} then raise exception 'refused by the test'; end if;
      return new; end $$`),
  );
  await t.database.db.execute(sql.raw(`create trigger ${name} before update on ${table} for each row execute function ${name}()`));
  return async () => {
    await t.database.db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await t.database.db.execute(sql.raw(`drop function ${name}()`));
  };
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  relay = await startRelay(fake.url);
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", { ...fake, url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/v1` });
  const registered = await registerAndSignIn(t.app);
  user = registered.client;
  userId = registered.user.id;
  expect((await admin.call(adminUsersApi.update, { params: { id: userId }, body: { planType: "earlyAccess" } })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  relay?.closeAllConnections();
  await new Promise((r) => relay?.close(r));
  await fake?.close();
});

describe("text from a provider", () => {
  it("a reply with a NUL and half a surrogate pair ends complete, both gone, as streamed and as stored", async () => {
    const chat = await newChat(user);
    const res = await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "say NULMARK and LONEMARK now" } });
    expect(res.status).toBe(200);
    const events = parseEvents(res.response.body);
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage).toMatchObject({ status: "complete", content: "Echo: say  and  now" });
    expect(textOf(events)).toBe("Echo: say  and  now");
    expect((await rowsOf(chat.id)).map((r) => [r.role, r.status, r.content])).toEqual([
      ["user", "complete", "say NULMARK and LONEMARK now"],
      ["assistant", "complete", "Echo: say  and  now"],
    ]);
    // The next reply is allowed (nothing is left streaming).
    expect((await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "again" } })).status).toBe(200);
  });

  it("a lesson written by AI loses a NUL too", async () => {
    const course = await user.ok(coursesApi.create, { body: { title: "Clean NULMARK text" } });
    const module = await user.ok(coursesApi.createModule, { params: { id: course.id }, body: { title: "M" } });
    const res = await user.call(courseAiApi.lessonContent, { params: { id: module.id }, body: { title: "About NULMARK" } });
    expect(res.status).toBe(200);
    const content = res.data.content;
    expect(content).toContain('lesson "About "');
    expect(content.includes("\u0000")).toBe(false);
  });
});

describe("a reply whose end the database refuses", () => {
  it("ends its stream with an error at once, never stops a start or the sweep, and is stored as soon as the database takes it", async () => {
    const chat = await newChat(user);
    const allow = await refuse("messages", "chat_id", chat.id);
    let allowed = false;
    try {
      // inject resolves only when the stream has ended.
      const res = await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "keep this" } });
      const events = parseEvents(res.response.body);
      expect(events[0]?.type).toBe("start");
      expect(textOf(events)).toBe("Echo: keep this");
      expect(events.at(-2)).toEqual({ type: "error", message: SAVE_FAILED, status: 503 });
      const done = events.at(-1);
      expect(done?.type === "done" && done.assistantMessage).toMatchObject({ status: "incomplete", content: "Echo: keep this" });
      expect((await rowsOf(chat.id)).at(-1)?.status).toBe("streaming");

      // The sweep and a start (another app on this database) meet the row they cannot change, and go on.
      await expect(t.app.ctx.generations.recoverOrphans()).resolves.toBeUndefined();
      const other = await buildApp({ config: testConfig(), database: t.database, logger: false });
      await other.ready();
      expect((await callApp(other, publicContentApi.paymentSettings, {})).status).toBe(200);
      await other.close();
      expect((await rowsOf(chat.id)).at(-1)?.status).toBe("streaming");

      await allow();
      allowed = true;
      const stored = await until(
        async () => (await rowsOf(chat.id)).at(-1),
        (row) => row?.status !== "streaming",
      );
      expect(stored).toMatchObject({ role: "assistant", status: "incomplete", content: "Echo: keep this", error: SAVE_FAILED });
      expect((await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "next" } })).status).toBe(200);
    } finally {
      if (!allowed) await allow();
    }
  });

  it("a course run whose progress the database refuses ends failed (resumable) once it answers, and the sweep goes on meanwhile", async () => {
    const course = await user.ok(coursesApi.create, { body: { title: "Refused run" } });
    // The first statement of the run's loop is an update of its row: refused from the start.
    const allow = await refuse("course_generation_runs", "course_id", course.id);
    let allowed = false;
    try {
      const approved = await user.call(courseAiApi.approveOutline, { params: { id: course.id }, body: { outline: FAKE_OUTLINE } });
      expect(approved.status).toBe(201);
      // Past the few seconds in which a new run of this instance is left alone, so the sweep tries it and fails.
      await sleep(5500);
      await expect(t.app.ctx.courseGenerations.sweep()).resolves.toBeUndefined();
      expect((await user.ok(courseAiApi.generation, { params: { id: course.id } }))?.status).toBe("running");
      await allow();
      allowed = true;
      const run = await until(
        async () => await user.ok(courseAiApi.generation, { params: { id: course.id } }),
        (r) => r?.status !== "running",
      );
      expect(run).toMatchObject({ status: "failed", error: PROGRESS_NOT_SAVED });
      const resumed = await user.call(courseAiApi.resumeGeneration, { params: { id: course.id } });
      expect(resumed.status).toBe(200);
      const finished = await until(
        async () => await user.ok(courseAiApi.generation, { params: { id: course.id } }),
        (r) => r?.status !== "running",
      );
      expect(finished).toMatchObject({ status: "done", done: 4 });
    } finally {
      if (!allowed) await allow();
    }
  });
});

describe("Stop", () => {
  it("ends a reply nobody writes (its owner gone, none, or this instance without it): stored incomplete, new replies allowed", async () => {
    for (const owner of ["an-instance-that-is-gone", null, t.app.ctx.generations.instanceId]) {
      // The 5-second sweep closes an orphan too: should it get there between the insert and Stop (a loaded
      // machine), the row is closed all the same and the case is tried again, so that Stop meets it streaming.
      let chat: Awaited<ReturnType<typeof newChat>> | undefined;
      let stop: { stopped: boolean } = { stopped: false };
      for (let attempt = 0; attempt < 3 && !stop.stopped; attempt++) {
        chat = await newChat(user);
        await t.database.db.execute(
          sql`insert into messages (chat_id, user_id, role, content, status) values (${chat.id}, ${userId}, 'user', 'hello', 'complete')`,
        );
        await t.database.db.execute(
          sql`insert into messages (chat_id, user_id, role, content, status, generation_owner) values (${chat.id}, ${userId}, 'assistant', 'half a', 'streaming', ${owner})`,
        );
        // Refused while it looks written (asked only of the row of this instance: the sweep leaves it alone for a few seconds).
        if (owner === t.app.ctx.generations.instanceId) {
          expect((await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "more" } })).status).toBe(409);
        }
        stop = await user.ok(chatsApi.stop, { params: { id: chat.id } });
        if (!stop.stopped) expect((await rowsOf(chat.id)).at(-1)?.status).not.toBe("streaming");
      }
      expect({ owner, stop }).toEqual({ owner, stop: { stopped: true } });
      if (!chat) throw new Error("no chat");
      expect((await rowsOf(chat.id)).at(-1)).toMatchObject({ status: "incomplete", content: "half a", error: STOPPED_BY_USER });
      expect(await user.ok(chatsApi.stop, { params: { id: chat.id } })).toEqual({ stopped: false });
      expect((await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "more" } })).status).toBe(200);
    }
  });

  it("answers stopped: false when the sweep closed the reply between Stop's read and its write", async () => {
    const chat = await newChat(user);
    await t.database.db.execute(
      sql`insert into messages (chat_id, user_id, role, content, status) values (${chat.id}, ${userId}, 'user', 'hello', 'complete')`,
    );
    await t.database.db.execute(
      sql`insert into messages (chat_id, user_id, role, content, status, generation_owner) values (${chat.id}, ${userId}, 'assistant', 'half a', 'streaming', 'an-instance-that-is-gone')`,
    );
    // What Stop read: the row still streaming.
    const seen = { ...(await rowsOf(chat.id)).at(-1), generationOwner: "an-instance-that-is-gone" } as Row & { generationOwner: string };
    // The sweep gets there first.
    await t.app.ctx.generations.recoverOrphans();
    expect(await t.app.ctx.generations.stop(seen)).toBe(false);
    expect((await rowsOf(chat.id)).at(-1)).toMatchObject({ status: "incomplete", content: "half a" });
    expect((await rowsOf(chat.id)).at(-1)?.error).not.toBe(STOPPED_BY_USER);
  });

  it("ends a reply running here and answers once it is stored", async () => {
    const chat = await newChat(user);
    const pending = user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "wait #hang" } });
    await until(
      async () => (await rowsOf(chat.id)).at(-1),
      (row) => row?.role === "assistant" && row.content.length > 0,
    );
    expect(await user.ok(chatsApi.stop, { params: { id: chat.id } })).toEqual({ stopped: true });
    expect((await rowsOf(chat.id)).at(-1)).toMatchObject({ status: "incomplete", error: STOPPED_BY_USER });
    const last = parseEvents((await pending).response.body).at(-1);
    expect(last?.type === "done" && last.assistantMessage.status).toBe("incomplete");
  });
});

describe("one reply per user message", () => {
  // Regenerate keeps the earlier replies as siblings (issue 16): each accepted one adds exactly one, and the
  // branch shown still has one reply after the message.
  it("10 regenerates at once add one reply per accepted regenerate, and show one after the message (3 rounds)", async () => {
    const chat = await newChat(user);
    expect((await user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "once" } })).status).toBe(200);
    let replies = 1;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => user.call(chatsApi.regenerate, { params: { id: chat.id }, body: {} })),
      );
      const statuses = answers.map((a) => a.status);
      const accepted = statuses.filter((s) => s === 200).length;
      expect(accepted).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      replies += accepted;
      const rows = await rowsOf(chat.id);
      expect(rows.map((r) => [r.role, r.status])).toEqual([
        ["user", "complete"],
        ...Array.from({ length: replies }, () => ["assistant", "complete"]),
      ]);
      const shown = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
      expect(shown.map((m) => [m.role, m.branch.count])).toEqual([
        ["user", 1],
        ["assistant", replies],
      ]);
    }
  });

  it("10 sends at once: every user message has at most one reply, and the refused ones stored nothing", async () => {
    const chat = await newChat(user);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => user.call(chatsApi.reply, { params: { id: chat.id }, body: { content: `message ${i}` } })),
    );
    const accepted = answers.filter((a) => a.status === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const rows = await rowsOf(chat.id);
    expect(rows.length).toBe(accepted * 2);
    for (let i = 0; i < rows.length; i += 2) {
      expect([rows[i]?.role, rows[i + 1]?.role, rows[i + 1]?.status]).toEqual(["user", "assistant", "complete"]);
    }
  });
});
