// Where a library file ends (decision 068): a file that cannot be read is failed for good (not retryable: Retry is a
// 422, the answer says so, and it counts until deleted), one whose failure may pass is retried; a file attached in the
// chat composer is "unsent" until a message takes it, counts meanwhile, and is swept once its day is up, at start
// (a restart) and by the hourly housekeeping, while a sent one is never swept.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.js";
import { sweepUnsentFiles } from "../../src/server/modules/knowledge/unsent-files.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { collectionsApi, FILE_LIMIT_MESSAGES, filesApi } from "../../src/shared/contracts/knowledge.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, pointPlatformAt } from "../helpers/chat-setup.js";
import { countOf, settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
let other: CookieClient;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
  other = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const db = () => t.database.db;
const text = (value: string) => new TextEncoder().encode(value);

function upload(client: CookieClient, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) {
  return client.call(filesApi.upload, {}, { multipart: multipartFile("file", name, "application/octet-stream", bytes, fields) });
}
async function uploaded(client: CookieClient, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) {
  const res = await upload(client, name, bytes, fields);
  expect({ status: res.status, body: res.status === 201 ? "" : res.response.body }).toEqual({ status: 201, body: "" });
  return res.data;
}
const forMessage = { purpose: "message" };

const storageOf = async (client: CookieClient) => (await client.ok(usageApi.mine, {})).storage;
const getFile = (client: CookieClient, id: number) => client.call(filesApi.get, { params: { id } });
const retry = (client: CookieClient, id: number) => client.call(filesApi.retry, { params: { id } });
const remove = (client: CookieClient, id: number) => client.call(filesApi.delete, { params: { id } });
const exists = async (id: number) => (await countOf(db(), sql`select count(*) as n from knowledge_files where id = ${id}`)) === 1;
const bytesKept = (id: number) => countOf(db(), sql`select count(*) as n from knowledge_file_bytes where file_id = ${id}`);
const setUnsentUntil = (id: number, when: "past" | "future" | null) =>
  db().execute(
    when === null
      ? sql`update knowledge_files set unsent_until = null where id = ${id}`
      : sql`update knowledge_files set unsent_until = now() + ${when === "past" ? "-1 minute" : "1 hour"}::interval where id = ${id}`,
  );

async function sendWith(client: CookieClient, fileIds: number[]) {
  const chat = await newChat(client);
  return client.call(chatsApi.reply, { params: { id: chat.id }, body: { content: "What do these say?", fileIds } });
}

describe("a file that cannot be read is failed for good", () => {
  it("the worker marks it not retryable; Retry is a 422 with words, nothing changes, and it counts until deleted", async () => {
    const client = (await registerAndSignIn(t.app)).client;
    const broken = await uploaded(client, "broken.pdf", text("%PDF-1.7 this is not really a pdf"));
    expect(broken.retryable).toBe(false);
    const failed = await settledFile(client, broken.id);
    expect(failed).toMatchObject({ status: "failed", retryable: false });
    expect(failed.error).toMatch(/could not be read/);

    const retried = await retry(client, broken.id);
    expect({ status: retried.status, message: retried.error.message }).toEqual({ status: 422, message: FILE_LIMIT_MESSAGES.notRetryable });
    expect((await getFile(client, broken.id)).data).toMatchObject({ status: "failed", retryable: false, error: failed.error });
    // Its bytes are stored: it keeps its place against the plan until its owner deletes it.
    expect(await storageOf(client)).toMatchObject({ files: 1, usedBytes: broken.size });
    // Sent on a message, the refusal says to attach a readable copy, not to retry.
    const sent = await sendWith(client, [broken.id]);
    expect(sent.status).toBe(400);
    expect(sent.error.message).toBe(`broken.pdf could not be read: ${failed.error}. Remove it and attach a readable copy.`);

    expect((await remove(client, broken.id)).status).toBe(204);
    expect(await storageOf(client)).toMatchObject({ files: 0, usedBytes: 0 });
  });

  it("a failure that may pass (the provider or the database away) stays retryable, and Retry queues it", async () => {
    const file = await uploaded(user, "later.md", text("# Later\n\nRead me again."));
    expect((await settledFile(user, file.id)).status).toBe("ready");
    await db().execute(
      sql`update knowledge_files set status = 'failed', attempts = 5, error = 'We could not index this file: the embedding provider answered 500. Retry later.' where id = ${file.id}`,
    );
    expect((await getFile(user, file.id)).data).toMatchObject({ status: "failed", retryable: true });
    // Another user's file: a 404, as every verb, and it stays as it was.
    const stolen = await retry(other, file.id);
    expect(stolen.status).toBe(404);
    expect((await getFile(user, file.id)).data).toMatchObject({ status: "failed", retryable: true });

    const retried = await retry(user, file.id);
    expect(retried.status).toBe(200);
    expect(retried.data).toMatchObject({ status: "queued", error: null, retryable: false });
    expect((await settledFile(user, file.id)).status).toBe("ready");
  });

  it("another user's permanently failed file is a 404 to Retry, not its 422 (nothing said of it)", async () => {
    const broken = await uploaded(user, "mine.pdf", text("%PDF-1.4 junk"));
    expect((await settledFile(user, broken.id)).retryable).toBe(false);
    const res = await retry(other, broken.id);
    expect({ status: res.status, message: res.error.message }).toEqual({ status: 404, message: FILE_LIMIT_MESSAGES.fileNotFound });
  });
});

describe("a file attached to a message not sent yet", () => {
  it("is unsent for a day and counts meanwhile; taken off the composer (deleted) it stops counting", async () => {
    const client = (await registerAndSignIn(t.app)).client;
    const before = Date.now();
    const file = await uploaded(client, "draft.txt", text("a draft attachment"), forMessage);
    expect(file.collectionId).toBeNull();
    const until = Date.parse(file.unsentUntil ?? "");
    expect(until).toBeGreaterThan(before + 23.9 * 3600_000);
    expect(until).toBeLessThan(Date.now() + 24.1 * 3600_000);
    expect(await storageOf(client)).toMatchObject({ files: 1, usedBytes: file.size });
    expect((await client.ok(filesApi.list, {})).items).toEqual([expect.objectContaining({ id: file.id, unsentUntil: file.unsentUntil })]);

    // Someone else cannot remove it.
    expect((await remove(other, file.id)).status).toBe(404);
    expect((await remove(client, file.id)).status).toBe(204);
    expect(await storageOf(client)).toMatchObject({ files: 0, usedBytes: 0 });

    // A library upload is not unsent.
    expect((await uploaded(client, "kept.txt", text("kept"))).unsentUntil).toBeNull();
  });

  it("refuses a purpose it does not know, and a message's file in a collection (400)", async () => {
    const collection = await user.ok(collectionsApi.create, { body: { name: "Drafts" } });
    const refused: Record<string, string>[] = [{ purpose: "forever" }, { purpose: "message", collectionId: String(collection.id) }];
    for (const fields of refused) {
      const res = await upload(user, "x.txt", text("x"), fields);
      expect({ fields, status: res.status }).toEqual({ fields, status: 400 });
      expect(res.error.errors).toHaveProperty("purpose");
    }
  });

  it("a message that sends it makes it a library file; a move into a collection keeps it too", async () => {
    const file = await uploaded(user, "sent.txt", text("Sent with the message."), forMessage);
    expect((await settledFile(user, file.id)).status).toBe("ready");
    const res = await sendWith(user, [file.id]);
    expect(res.status, res.response.body).toBe(200);
    expect((await getFile(user, file.id)).data).toMatchObject({ unsentUntil: null });

    const moved = await uploaded(user, "moved.txt", text("Moved to a collection."), forMessage);
    const collection = await user.ok(collectionsApi.create, { body: { name: "Keep" } });
    expect(await user.ok(filesApi.update, { params: { id: moved.id }, body: { collectionId: collection.id } })).toMatchObject({
      unsentUntil: null,
    });
  });

  it("the sweep deletes the unsent files past their day (row, bytes, count), never a sent one or one still in time", async () => {
    const client = (await registerAndSignIn(t.app)).client;
    const stale = await uploaded(client, "stale.png.txt", text("left in a closed tab"), forMessage);
    const fresh = await uploaded(client, "fresh.txt", text("still being written"), forMessage);
    const library = await uploaded(client, "library.txt", text("a library file"));
    // Sent, but the process ended before its send cleared the mark: the stored message keeps it.
    const sent = await uploaded(client, "sent.txt", text("sent before a crash"), forMessage);
    for (const file of [stale, fresh, library, sent]) await settledFile(client, file.id);
    expect((await sendWith(client, [sent.id])).status).toBe(200);
    await setUnsentUntil(stale.id, "past");
    await setUnsentUntil(fresh.id, "future");
    await setUnsentUntil(sent.id, "past");
    expect((await storageOf(client)).files).toBe(4);

    const swept = await sweepUnsentFiles(db(), t.app.ctx.fileStore);
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await exists(stale.id)).toBe(false);
    expect(await bytesKept(stale.id)).toBe(0);
    expect((await getFile(client, stale.id)).status).toBe(404);
    expect(await exists(fresh.id)).toBe(true);
    expect(await exists(library.id)).toBe(true);
    expect((await getFile(client, sent.id)).data).toMatchObject({ unsentUntil: null });
    expect(await storageOf(client)).toMatchObject({ files: 3, usedBytes: fresh.size + library.size + sent.size });
    // Nothing left to do: a second sweep deletes nothing of theirs.
    await sweepUnsentFiles(db(), t.app.ctx.fileStore);
    expect((await storageOf(client)).files).toBe(3);
  });

  it("survives a restart: the deadline is in the row, and a new start sweeps what is due", async () => {
    const file = await uploaded(user, "before-restart.txt", text("attached, then the server stopped"), forMessage);
    await settledFile(user, file.id);
    await setUnsentUntil(file.id, "past");
    // A second instance of the app on the same database, as a restart would start it.
    const restarted = await buildApp({ config: testConfig(), database: t.database, logger: false });
    try {
      await restarted.ready();
      expect(await exists(file.id)).toBe(false);
    } finally {
      await restarted.close();
    }
  });
});
