// A library file's download, read from the database a slice a statement while it is sent (decision 070): the same
// bytes whatever their size, the size declared up front, only the owner's; a file whose bytes vanish midway ends the
// read with an error, never with fewer bytes.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFileStore, FILE_PART_BYTES, FILE_READ_SLICE } from "../../src/server/modules/knowledge/file-store.js";
import { filesApi } from "../../src/shared/contracts/knowledge.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { insertFile } from "../helpers/knowledge-files.js";

let t: TestApp;
let owner: { client: CookieClient; id: number };
let other: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  const signedIn = await registerAndSignIn(t.app);
  owner = { client: signedIn.client, id: signedIn.user.id };
  other = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

const storedFile = (name: string, bytes: Uint8Array) => insertFile(t.app, { userId: owner.id, name, bytes, kind: "pdf" });
/** The file's bytes (a file's answer: its raw bytes in `response`). */
const content = (client: CookieClient, id: number | string) => client.call(filesApi.content, { params: { id } });

describe("a library file's download", () => {
  it("sends the same bytes over several slices, and at a slice's exact end, with the size declared", async () => {
    for (const size of [2 * FILE_READ_SLICE + 12_345, FILE_READ_SLICE, 0]) {
      const bytes = randomBytes(size);
      const id = await storedFile(`file-${size}.pdf`, bytes);
      const res = (await content(owner.client, id)).response;
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-length"]).toBe(String(size));
      expect(res.rawPayload.equals(bytes)).toBe(true);
      // What ingestion reads whole is the same too.
      expect(Buffer.from(await t.app.ctx.fileStore.read({ id, storage: "db", storageKey: null })).equals(bytes)).toBe(true);
    }
  });

  it("is the owner's only: another user gets a 404, the signed out a 401, a bad id a 400", async () => {
    const id = await storedFile("mine.pdf", randomBytes(100));
    expect((await content(other, id)).status).toBe(404);
    const anonymous = await callApp(t.app, filesApi.content, { params: { id } });
    expect(anonymous.status).toBe(401);
    expect((await content(owner.client, "abc")).status).toBe(400);
  });

  it("ends the read with an error when the file's bytes vanish midway, never with fewer bytes", async () => {
    const id = await storedFile("vanishing.pdf", randomBytes(2 * FILE_READ_SLICE));
    const slices = databaseFileStore(t.database.db).stream({ id, storage: "db", storageKey: null })[Symbol.asyncIterator]();
    const first = await slices.next();
    // A statement reads one part (decision 074), a quarter of a MiB.
    expect(first.value?.byteLength).toBe(FILE_PART_BYTES);
    // Deleted as DELETE /api/files/:id deletes it: the row, then its parts.
    await t.database.db.execute(sql`delete from knowledge_files where id = ${id}`);
    await t.app.ctx.fileStore.remove([{ id, storage: "db", storageKey: null }]);
    await expect(slices.next()).rejects.toThrow(`file ${id} has no bytes`);
  });
});
