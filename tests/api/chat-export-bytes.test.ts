// The exports' bytes (decision 070): the streamed JSON and Markdown files are byte for byte what the export wrote before
// its reads were cut into short statements with turns of the event loop, for a seeded set of chats (text JSON escapes
// and Markdown must contain, branches, a shown leaf on an older branch, attached files, tool calls, citations, a chat
// over many pages of messages, more chats than one page). The files of tests/fixtures/chat-export were written by the
// code before that change (the export as at a42c4e5; UPDATE_EXPORT_GOLDEN=1 writes them again); the one thing that
// differs between two runs, the time of the export, is put aside.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import type { Who } from "../../src/server/lib/who.js";
import { exportChats } from "../../src/server/modules/chat-transfer/export-service.js";
import { chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

const GOLDEN = new URL("../fixtures/chat-export/", import.meta.url);
const update = process.env.UPDATE_EXPORT_GOLDEN === "1";

let t: TestApp;
let owner: { client: CookieClient; id: number };
let tricky: number;

/** Everything JSON escapes or Markdown must contain: quotes, backslashes, controls, line ends of every kind, HTML, fences. */
const TRICKY_TEXT = [
  'She said "hi" \\ then left\ttabbed',
  "Windows line\r\nold Mac line\rline separator\u2028paragraph separator\u2029end",
  "A control \u0001 and a bell \u0007, naïve café, 日本語, 🙂 and 👩‍👩‍👧",
  "<!-- an HTML comment never closed",
  "<script>alert(1)</script>",
  "```ts\nconst open = 'a fence left open';",
].join("\n");

const at = (minute: number) => new Date(Date.UTC(2025, 0, 2, 10, minute));

async function insertChat(values: Partial<typeof chats.$inferInsert> & { title: string }) {
  const [chat] = await t.database.db
    .insert(chats)
    .values({ userId: owner.id, aiPlatform: "openai", model: "fake-model", createdAt: at(0), updatedAt: at(59), ...values })
    .returning();
  if (!chat) throw new Error("no chat");
  return chat.id;
}

async function insertMessage(chatId: number, parentId: number | null, values: Partial<typeof messages.$inferInsert>) {
  const [row] = await t.database.db
    .insert(messages)
    .values({ chatId, userId: owner.id, parentId, role: "user", content: "", createdAt: at(1), ...values })
    .returning();
  if (!row) throw new Error("no message");
  return row.id;
}

const citation = (n: number) => ({
  n,
  fileId: 7,
  fileName: `notes "${n}" [draft] *bold*.md`,
  page: n === 1 ? null : n,
  excerpt: `Excerpt ${n}: <b>bold</b> & "quoted"\nsecond line`,
  chunkId: 70 + n,
});

beforeAll(async () => {
  t = await buildTestApp();
  const signedIn = await registerAndSignIn(t.app);
  owner = { client: signedIn.client, id: signedIn.user.id };
  const db = t.database.db;

  // A tree with branches and a shown leaf on a branch that is not the newest, every kind of field filled.
  tricky = await insertChat({ title: 'Café "quoted" <b>bold</b> & 日本語 🙂\nsecond line' });
  const ask = await insertMessage(tricky, null, {
    content: TRICKY_TEXT,
    createdAt: at(1),
    attachments: [
      { name: "notes\n[1].md", size: 12, content: '# "Notes"\n\\ end' },
      { name: "library.pdf", size: 2048, fileId: 3, mimeType: "application/pdf", sha256: "a".repeat(64) },
    ],
  });
  const first = await insertMessage(tricky, ask, {
    role: "assistant",
    content: "First answer [1] and [2]\n\n- a list\n> a quote",
    status: "incomplete",
    model: "fake-model",
    platformSlug: "openai",
    personalityName: "Guide\nwith a new line",
    createdAt: at(2),
    citations: [citation(1), citation(2)],
    toolCalls: [
      {
        id: "call_1",
        tool: "builtin:search_files",
        name: "search_files",
        step: 0,
        args: { query: 'what "is" \\ this' },
        result: "two passages",
        status: "done",
        textOffset: 0,
        sources: [citation(1)],
      },
      { id: "call_2", tool: "mcp:1:lookup", step: 1, args: null, result: null, status: "awaiting-approval", textOffset: 12 },
    ],
  });
  const second = await insertMessage(tricky, ask, {
    role: "assistant",
    content: "Second answer, failed",
    status: "failed",
    model: "other-model",
    createdAt: at(3),
  });
  const followUp = await insertMessage(tricky, first, { content: "   Follow-up with spaces around   ", createdAt: at(4) });
  await insertMessage(tricky, followUp, { role: "assistant", content: "Newest reply, on the other branch", createdAt: at(5) });
  await db.update(chats).set({ activeLeafId: second }).where(eq(chats.id, tricky));

  // Never exported in the file of all chats: a temporary chat and one without messages.
  const temporary = await insertChat({ title: "Temporary", temporary: true });
  await insertMessage(temporary, null, { content: "scratch" });
  await insertChat({ title: "Empty" });

  // A chat of 2,503 messages (pages of messages, steps of the walk up its branch and of the count before its leaf), a
  // branch every fourth reply, a reply left a dead end shown.
  const long = await insertChat({ title: "Long chat", model: null, aiPlatform: "anthropic-claude" });
  await db.execute(sql`
    insert into messages (chat_id, user_id, role, content, model, created_at)
    select ${long}, ${owner.id}, case when g % 2 = 1 then 'user' else 'assistant' end,
           'Line ' || g || E' with "quotes" \\\\ and\\nnew lines, é', case when g % 2 = 0 then 'm' end,
           timestamp with time zone '2025-01-03 00:00:00+00' + (g || ' seconds')::interval
    from generate_series(1, 2503) g order by g`);
  await db.execute(sql`
    update messages m set parent_id = p.parent from (
      select id, case when (row_number() over w) % 8 = 0 then lag(id, 3) over w else lag(id) over w end as parent
      from messages where chat_id = ${long} window w as (order by id)
    ) p where m.id = p.id`);
  await db.execute(sql`
    update chats set active_leaf_id = (select id from messages where chat_id = ${long} order by id offset 2006 limit 1) where id = ${long}`);

  // 120 small chats after it: the chats come in two pages.
  await db.execute(sql`
    with made as (
      insert into chats (user_id, title, ai_platform, model, created_at, updated_at)
      select ${owner.id}, 'Small chat ' || g, 'openai', 'fake-model', timestamp with time zone '2025-02-01 00:00:00+00' + (g || ' minutes')::interval,
             timestamp with time zone '2025-02-02 00:00:00+00' + (g || ' minutes')::interval
      from generate_series(1, 120) g returning id, created_at
    )
    insert into messages (chat_id, user_id, role, content, created_at) select id, ${owner.id}, 'user', 'Hello from ' || id - (select min(id) from made), created_at from made`);
  // Half of them show their message (the app sets it), half show none.
  await db.execute(sql`
    update chats c set active_leaf_id = (select max(m.id) from messages m where m.chat_id = c.id) where c.user_id = ${owner.id} and c.title like 'Small chat %' and c.id % 2 = 0`);
});
afterAll(async () => {
  await t?.close();
});

/** The export's bytes (a file's answer, read raw), the time of the export put aside (the one thing that differs between two runs). */
async function exportBytes(format: "json" | "markdown", chatId?: number): Promise<string> {
  const called =
    chatId === undefined
      ? await owner.client.call(chatTransferApi.exportAll, { query: { format } })
      : await owner.client.call(chatTransferApi.exportOne, { params: { id: chatId }, query: { format } });
  const res = called.response;
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return withoutExportTime(res.body);
}

const withoutExportTime = (body: string) =>
  body
    .replace(/^(\{"format":"lumora\.chats","version":1,"exportedAt":)"[^"]+"/, '$1"<exported at>"')
    .replace(/^(# Chat export\n\n_Exported )\d{4}-\d\d-\d\d \d\d:\d\d UTC/, "$1<exported at>");

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Compares with the golden file `name`: whole for a small file, by its SHA-256 and length for a large one. */
function expectGolden(name: string, body: string, whole: boolean) {
  const file = new URL(name, GOLDEN);
  const golden = whole ? body : `${sha256(body)} ${Buffer.byteLength(body)}\n`;
  if (update) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, golden);
  }
  expect(golden).toBe(readFileSync(file, "utf8"));
}

describe("the exports' bytes", () => {
  it("one chat, JSON and Markdown: the same bytes as before", async () => {
    expectGolden("one-chat.json", await exportBytes("json", tricky), true);
    expectGolden("one-chat.md", await exportBytes("markdown", tricky), true);
  });

  it("every chat, JSON and Markdown (two pages of chats, a chat over many pages of messages): the same bytes as before", async () => {
    expectGolden("all-chats.json.sha256", await exportBytes("json"), false);
    expectGolden("all-chats.md.sha256", await exportBytes("markdown"), false);
  });

  it("the same bytes whatever the sizes of the reads: pages of 7 chats and 3 messages, walks and counts of 5 messages", async () => {
    const who = { id: owner.id } as Who;
    const paging = { chats: 7, batchSize: 3, pageBytes: 2_000, walkRows: 5 };
    const read = async (format: "json" | "markdown", chatId?: number) => {
      const download = await exportChats({ db: t.database.db, who, format, chatId, paging });
      let text = "";
      for await (const piece of download.body) text += piece;
      return withoutExportTime(text);
    };
    expectGolden("one-chat.json", await read("json", tricky), true);
    expectGolden("one-chat.md", await read("markdown", tricky), true);
    expectGolden("all-chats.json.sha256", await read("json"), false);
    expectGolden("all-chats.md.sha256", await read("markdown"), false);
  }, 120_000);
});
