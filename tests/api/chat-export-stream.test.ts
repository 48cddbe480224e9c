// The exports as they stream over a real socket (decision 070): others are answered while a large export is written
// (a turn of the event loop between its reads), a read that fails once bytes went out cuts the download off (never a
// short file that looks whole), and the export holds the signed-in user's own chats only.
import http from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatExportFileSchema, chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type CallInput, requestFor } from "../helpers/api-call.js";
import { buildTestApp, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let port: number;

/** A signed-in user with one chat of `count` messages in a chain, written in bulk; its id and its session cookie. */
async function userWithChat(count: number, title: string) {
  const { client, user } = await registerAndSignIn(t.app);
  const made = await t.database.db.execute(sql`
    insert into chats (user_id, title, ai_platform) values (${user.id}, ${title}, 'openai') returning id`);
  const chatId = Number((made.rows[0] as { id: number }).id);
  await t.database.db.execute(sql`
    insert into messages (chat_id, user_id, role, content)
    select ${chatId}, ${user.id}, case when g % 2 = 1 then 'user' else 'assistant' end, 'Message ' || g || ' ' || repeat('words ', 20)
    from generate_series(1, ${count}) g order by g`);
  await t.database.db.execute(sql`
    update messages m set parent_id = p.prev from (select id, lag(id) over (order by id) as prev from messages where chat_id = ${chatId}) p
    where m.id = p.id`);
  return { client, userId: user.id, chatId, cookie: client.sessionCookie ?? "" };
}

type Got = { status: number; body: string; complete: boolean; error?: Error; headersAt: number; endAt: number };

/** The address the contract gives an endpoint and its input (sent here over a real socket, not injected). */
const pathOf = <E extends EndpointShape>(endpoint: E, input: CallInput<E>) => String(requestFor(endpoint, input).url);
const exportAll = (format?: "json" | "markdown") => pathOf(chatTransferApi.exportAll, format ? { query: { format } } : {});
const exportOne = (id: number | string, format?: "json" | "markdown") =>
  pathOf(chatTransferApi.exportOne, { params: { id }, ...(format ? { query: { format } } : {}) });

/** A GET over a real socket, read to its end or its break: whether the response came whole (its last chunk). */
function get(path: string, cookie: string, onHeaders?: () => void): Promise<Got> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let headersAt = 0;
    const request = http.get({ host: "127.0.0.1", port, path, headers: { cookie } }, (res) => {
      headersAt = performance.now();
      onHeaders?.();
      const done = (error?: Error) =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          complete: res.complete,
          error,
          headersAt,
          endAt: performance.now(),
        });
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => done());
      res.on("error", (error) => done(error));
    });
    request.on("error", (error) => resolve({ status: 0, body: "", complete: false, error, headersAt, endAt: performance.now() }));
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(async () => {
  await t?.close();
});

describe("exports over a socket", () => {
  it("answers others while a large export is written: a request made when its headers came is answered before it ends", async () => {
    const exporter = await userWithChat(2_000, "Large chat");
    const other = await registerAndSignIn(t.app);
    let asked: Promise<Got> | undefined;
    const exported = await get(exportOne(exporter.chatId, "json"), exporter.cookie, () => {
      asked = get(pathOf(userApi.me, {}), other.client.sessionCookie ?? "");
    });
    const answered = await (asked as Promise<Got>);
    expect(exported.status).toBe(200);
    expect(exported.complete).toBe(true);
    expect(chatExportFileSchema.parse(JSON.parse(exported.body)).chats[0]?.messages).toHaveLength(2_000);
    expect(answered.status).toBe(200);
    // Answered while the export was still going: its ten pages of messages did not hold it. (Small enough to fit in
    // the sockets' buffers: written without turns between its reads, the whole export went before the other request.)
    expect(answered.endAt).toBeLessThan(exported.endAt);
  });

  it("cuts the download off when a read fails after the first bytes went out: no last chunk, never a file that parses", async () => {
    const broken = await userWithChat(400, "Breaks midway");
    // A message the database cannot size (its attached files not a list): the read of the second page fails.
    await t.database.db.execute(sql`
      update messages set attachments = '{"not": "a list"}'::jsonb
      where id = (select id from messages where chat_id = ${broken.chatId} order by id offset 350 limit 1)`);
    for (const format of ["json", "markdown"] as const) {
      const got = await get(exportAll(format), broken.cookie);
      expect(got.status).toBe(200);
      expect(got.complete).toBe(false);
      expect(got.error?.message).toMatch(/aborted|socket hang up|ECONNRESET/);
      expect(got.body.length).toBeGreaterThan(0);
      if (format === "json") expect(() => JSON.parse(got.body)).toThrow();
    }
    // Nothing of it went out yet (one chat's Markdown starts with its first page): an ordinary error answer.
    const single = await get(exportOne(broken.chatId, "markdown"), broken.cookie);
    expect(single.status).toBe(500);
    expect(single.complete).toBe(true);
    expect(JSON.parse(single.body)).toHaveProperty("message");
  });

  it("holds the signed-in user's chats only; refuses the signed out, another user's chat and a bad id", async () => {
    const mine = await userWithChat(3, "Mine");
    const theirs = await userWithChat(3, "Theirs");
    const all = await get(exportAll("json"), mine.cookie);
    expect(chatExportFileSchema.parse(JSON.parse(all.body)).chats.map((c) => c.title)).toEqual(["Mine"]);
    expect((await get(exportAll(), "")).status).toBe(401);
    expect((await get(exportOne(theirs.chatId), "")).status).toBe(401);
    const other = await get(exportOne(theirs.chatId, "json"), mine.cookie);
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body)).toEqual({ message: "Chat not found" });
    expect((await get(exportOne("abc"), mine.cookie)).status).toBe(400);
    // A format the contract does not allow, written as sent.
    expect((await get(`${exportAll()}?format=zip`, mine.cookie)).status).toBe(400);
  });
});
