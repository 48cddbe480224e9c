// Issue 28, finding 2: a small ChatGPT import froze the server. One conversation of 5,000 hidden nodes in a chain
// with 5,000 visible leaves below it (1.4 MB) took 23 s, every leaf walking up the whole chain on the main
// thread, and other requests waited up to 20 s. Here the app listens on 127.0.0.1 (real HTTP, one event loop
// shared by the import and everything else): the largest import the limits allow, in that hostile shape, is
// read and stored while a second signed-in client keeps asking GET /api/user; and the 5,000/5,000 file alone
// imports in well under a second of the server's CPU.
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { IMPORT_LIMITS } from "../../src/shared/contracts/chat-transfer.js";
import { buildTestApp, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { conversationJson, exportFile, fillerWords, mappingNode } from "../helpers/chatgpt-export-file.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await t?.close();
});

/** A signed-in account: its id and its session cookie for fetch. */
async function account(): Promise<{ id: number; cookie: string }> {
  const { client, user } = await registerAndSignIn(t.app);
  const cookie = client.sessionCookie;
  if (!cookie) throw new Error("no session");
  return { id: user.id, cookie };
}

/**
 * The hostile shape, as bytes of JSON: per conversation a chain of `hidden` system messages (hidden from the
 * conversation), then `leaves` visible user messages all hanging from the chain's last node, each `text` long.
 */
function hostileFile(conversations: number, hidden: number, leaves: number, textLength: number): Buffer {
  const words = fillerWords(textLength);
  const parts: string[] = [];
  for (let c = 0; c < conversations; c++) {
    const nodes: string[] = [];
    let parent: string | null = null;
    for (let i = 0; i < hidden; i++) {
      const id = `c${c}-h${i}`;
      const message = {
        author: { role: "system" },
        content: { content_type: "text", parts: [""] },
        metadata: { is_visually_hidden_from_conversation: true },
      };
      nodes.push(mappingNode(id, message, parent));
      parent = id;
    }
    for (let i = 0; i < leaves; i++) {
      const text = `${i} ${words}`.slice(0, textLength);
      const message = { author: { role: "user" }, content: { content_type: "text", parts: [text] }, create_time: 1719000000 + i };
      nodes.push(mappingNode(`c${c}-v${i}`, message, parent));
    }
    parts.push(conversationJson({ title: `Hostile ${c + 1}`, create_time: 1719000000, current_node: `c${c}-v${leaves - 1}` }, nodes));
  }
  return exportFile(parts);
}

function postImport({ cookie }: { cookie: string }, file: Buffer) {
  const body = multipartFile("file", "conversations.json", "application/json", file);
  return fetch(`${base}/api/chats/import`, { method: "POST", headers: { ...body.headers, cookie }, body: body.payload });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/**
 * Latencies of GET /api/user, one request at a time 10 ms apart, while `busy()` holds (at most `max` of them). Each
 * is timed from when it was due, not from when this loop got to send it: an event loop held while the loop waits
 * its 10 ms would otherwise hold back the next request unseen (this client shares the server's event loop).
 */
async function probeWhile(cookie: string, busy: () => boolean, max: number): Promise<number[]> {
  const latencies: number[] = [];
  let due = performance.now();
  while (busy() && latencies.length < max) {
    const res = await fetch(`${base}/api/user`, { headers: { cookie } });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    latencies.push(performance.now() - due);
    due = performance.now() + 10;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies.sort((a, b) => a - b);
}

const summarise = (sorted: number[]) => ({
  probes: sorted.length,
  p50: Math.round(percentile(sorted, 50)),
  p99: Math.round(percentile(sorted, 99)),
  max: Math.round(sorted.at(-1) ?? 0),
  over200: sorted.filter((ms) => ms > 200).length,
});

describe("an import never stops the server answering", () => {
  it("the largest hostile import the limits allow: GET /api/user from another account keeps a p99 under 200 ms", async () => {
    // As many conversations as the node bound allows, each as large as a conversation may be (half a hidden
    // chain, half leaves below it), the leaves' text filling the file up to the byte limit.
    const perChat = IMPORT_LIMITS.maxNodesPerChat;
    const conversations = Math.floor(IMPORT_LIMITS.maxNodes / perChat);
    const hidden = perChat / 2;
    const leaves = perChat - hidden;
    const bare = hostileFile(conversations, hidden, leaves, 0).length;
    const room = IMPORT_LIMITS.maxBytes - bare - 64 * 1024;
    const file = hostileFile(conversations, hidden, leaves, Math.floor(room / (conversations * leaves)));
    expect(file.length).toBeLessThanOrEqual(IMPORT_LIMITS.maxBytes);
    expect(file.length).toBeGreaterThan(IMPORT_LIMITS.maxBytes * 0.95);

    const importer = await account();
    const prober = await account();
    // The same probes with nothing else running, for comparison (the machine's own floor).
    const idle = summarise(await probeWhile(prober.cookie, () => true, 200));

    const started = performance.now();
    let done = false;
    const importing = postImport(importer, file).then(async (res) => ({ status: res.status, body: await res.text() }));
    void importing.finally(() => {
      done = true;
    });
    // Bounded: until the import answers, at most 20,000 probes.
    const during = summarise(await probeWhile(prober.cookie, () => !done, 20_000));
    const result = await importing;
    const took = performance.now() - started;

    console.log(
      "largest hostile import:",
      JSON.stringify({ fileMB: +(file.length / 1024 / 1024).toFixed(1), importSeconds: +(took / 1000).toFixed(1), during, idle }),
    );
    expect(during.p99).toBeLessThan(200);
    // And no request waits for seconds: on PostgreSQL the old import held the event loop once, for a minute, while
    // walking the trees, and then answered in between its statements, so its p99 alone looked fine.
    expect(during.max).toBeLessThan(3_000);
    expect(result.status, result.body.slice(0, 500)).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ imported: conversations, skipped: [] });
    expect(during.probes).toBeGreaterThan(50);
    const [stored] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.userId, importer.id));
    expect(Number(stored?.n)).toBe(conversations * leaves);
  }, 240_000);

  it("the 5,000-hidden / 5,000-leaf conversation imports in well under a second of the server's time", async () => {
    // A small import first: the reader thread's start (under tsx it compiles the TypeScript) and the first run of
    // each step are not this import's time.
    const warmUp = await postImport(await account(), hostileFile(1, 50, 50, 60));
    expect(warmUp.status).toBe(200);

    const user = await account();
    const file = hostileFile(1, 5_000, 5_000, 60);
    // The server's time as the CPU time of the thread that answers requests (here also the test's own, whose share
    // is sending 2 MB), where the import's statements run on PGlite: unlike the time on the clock, it does not grow
    // when other work takes the machine's cores, nor with the import's rests. The file's reading runs on the
    // import's reader thread, also counted in the process's time, shown with the time on the clock.
    const threadBefore = process.threadCpuUsage();
    const processBefore = process.cpuUsage();
    const started = performance.now();
    const res = await postImport(user, file);
    const body = await res.text();
    const wallMs = performance.now() - started;
    const cpuMs = (usage: NodeJS.CpuUsage) => Math.round((usage.user + usage.system) / 1000);
    const threadMs = cpuMs(process.threadCpuUsage(threadBefore));
    const processMs = cpuMs(process.cpuUsage(processBefore));
    console.log(
      "5,000/5,000 conversation:",
      JSON.stringify({ fileMB: +(file.length / 1024 / 1024).toFixed(2), threadMs, processMs, wallMs: Math.round(wallMs) }),
    );
    expect(res.status, body.slice(0, 500)).toBe(200);
    expect(JSON.parse(body)).toEqual({ imported: 1, skipped: [] });
    expect(threadMs).toBeLessThan(1_000);
    // Every leaf is kept, each a first message (nothing above it is shown), and the last one is the branch shown.
    const rows = await t.database.db
      .select({ id: messages.id, parentId: messages.parentId, content: messages.content })
      .from(messages)
      .where(eq(messages.userId, user.id))
      .orderBy(messages.id);
    expect(rows).toHaveLength(5_000);
    expect(rows.every((row) => row.parentId === null)).toBe(true);
    const [chat] = await t.database.db.select({ leaf: chats.activeLeafId }).from(chats).where(eq(chats.userId, user.id));
    expect(rows.find((row) => row.id === chat?.leaf)?.content.startsWith("4999 ")).toBe(true);
  }, 60_000);
});
