// A library file's bytes in the database are written in parts of at most FILE_PART_BYTES, a statement each, before the file's
// row, which is stored last in a short transaction (decision 074). The bytes come back as they went, whatever their
// size (a part's exact end, one byte over, several parts, a file stored whole before parts existed); a write that
// fails midway leaves no file and no parts; parts left without a row (a process killed while writing) are swept.
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeFileBytes } from "../../src/server/db/schema/index.js";
import {
  databaseFileStore,
  FILE_PART_BYTES,
  FILE_READ_SLICE,
  reserveFileId,
  sweepLooseParts,
} from "../../src/server/modules/knowledge/file-store.js";
import { filesApi } from "../../src/shared/contracts/knowledge.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { insertFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let owner: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  await registerAndSignIn(t.app); // the first account is the admin
  owner = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** `size` bytes that are an image by their signature (so any size is a valid upload), the rest random. */
function imageBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").copy(bytes, 0, 0, Math.min(size, 16));
  return bytes;
}

const upload = (client: CookieClient, name: string, bytes: Uint8Array) =>
  client.call(filesApi.upload, {}, { multipart: multipartFile("file", name, "application/octet-stream", bytes) });
/** The stored bytes, as sent (the contract types no answer for a download). */
const content = (client: CookieClient, id: number) => client.call(filesApi.content, { params: { id } });

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await t.database.db.execute(query)).rows as T[];
}
const partsOf = (fileId: number) =>
  rows<{ part: number; bytes: number }>(
    sql`select part, octet_length(data)::int as bytes from knowledge_file_bytes where file_id = ${fileId} order by part`,
  );
const looseParts = async () =>
  Number(
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from knowledge_file_bytes b where not exists (select 1 from knowledge_files f where f.id = b.file_id)`,
      )
    )[0]?.n,
  );

describe("a file's bytes in parts", () => {
  it("round-trips 1 byte, a part and a byte either side, a MiB and a byte over, several MiB: the download is the upload", async () => {
    const MiB = 1024 * 1024;
    const sizes = [1, FILE_PART_BYTES - 1, FILE_PART_BYTES, FILE_PART_BYTES + 1, MiB, MiB + 1, 3 * MiB + 12_345];
    for (const size of sizes) {
      // 16 bytes at least make the image's signature; below that, a text file.
      const bytes = size >= 16 ? imageBytes(size) : Buffer.from("x".repeat(size));
      const res = await upload(owner, size >= 16 ? `file-${size}.png` : `file-${size}.txt`, bytes);
      expect({ size, status: res.status }).toEqual({ size, status: 201 });
      const file = res.data;
      expect(file.size).toBe(size);

      const parts = await partsOf(file.id);
      expect(parts.map((p) => p.part)).toEqual(Array.from({ length: Math.ceil(size / FILE_PART_BYTES) }, (_, n) => n));
      expect(parts.every((p) => p.bytes <= FILE_PART_BYTES)).toBe(true);
      expect(parts.reduce((sum, p) => sum + p.bytes, 0)).toBe(size);

      const download = await content(owner, file.id);
      expect(download.status).toBe(200);
      expect(download.headers["content-length"]).toBe(String(size));
      expect(sha(download.response.rawPayload)).toBe(sha(bytes));
      // The row's hash (counted while the upload was read) is the bytes'; what ingestion reads whole is the same.
      const [row] = await rows<{ sha256: string }>(sql`select sha256 from knowledge_files where id = ${file.id}`);
      expect(row?.sha256).toBe(sha(bytes));
      const whole = await t.app.ctx.fileStore.read({ id: file.id, storage: "db", storageKey: null });
      expect(sha(whole)).toBe(sha(bytes));
    }
  });

  it("an empty upload is refused (400) and stores nothing; an empty file in the store is one empty part", async () => {
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from knowledge_file_bytes`);
    const res = await upload(owner, "empty.txt", new Uint8Array());
    expect(res.status).toBe(400);
    expect(res.error.message).toBe("This file is empty.");
    expect(await rows<{ n: number }>(sql`select count(*)::int as n from knowledge_file_bytes`)).toEqual(before);

    const store = databaseFileStore(t.database.db);
    const id = await reserveFileId(t.database.db);
    await store.put(t.database.db, { id, userId: 1 }, new Uint8Array());
    expect(await partsOf(id)).toEqual([{ part: 0, bytes: 0 }]);
    expect((await store.read({ id, storage: "db", storageKey: null })).byteLength).toBe(0);
    await store.remove([{ id, storage: "db", storageKey: null }]);
    expect(await partsOf(id)).toEqual([]);
  });

  it("a file stored whole before parts (one part 0 larger than a part) reads back the same, a slice a statement", async () => {
    const user = await registerAndSignIn(t.app);
    const bytes = imageBytes(2 * FILE_READ_SLICE + 777);
    const id = await insertFile(t.app, { userId: user.user.id, name: "old.png", bytes: new Uint8Array(), kind: "image", noBytes: true });
    await t.database.db.execute(sql`update knowledge_files set byte_size = ${bytes.byteLength}, sha256 = ${sha(bytes)} where id = ${id}`);
    // As migration 0033 left it: the old row, part 0, whatever its size.
    await t.database.db.insert(knowledgeFileBytes).values({ fileId: id, data: bytes });
    const download = await content(user.client, id);
    expect(download.status).toBe(200);
    expect(sha(download.response.rawPayload)).toBe(sha(bytes));
    const slices: number[] = [];
    for await (const slice of t.app.ctx.fileStore.stream({ id, storage: "db", storageKey: null })) slices.push(slice.byteLength);
    expect(slices).toEqual([FILE_READ_SLICE, FILE_READ_SLICE, 777]);
  });

  it("a write that fails midway leaves no file and no parts; the next upload is whole", async () => {
    const user = (await registerAndSignIn(t.app)).client;
    // The database refuses the third part (as a full disk would), from outside the code under test.
    await t.database.db.execute(sql`
      create or replace function refuse_third_part() returns trigger language plpgsql as $$
      begin
        if new.part = 2 then raise exception 'no room for part %', new.part; end if;
        return new;
      end $$`);
    await t.database.db.execute(
      sql`create trigger refuse_third_part before insert on knowledge_file_bytes for each row execute function refuse_third_part()`,
    );
    try {
      const res = await upload(user, "big.png", imageBytes(4 * FILE_PART_BYTES));
      expect(res.status).toBe(500);
    } finally {
      await t.database.db.execute(sql`drop trigger refuse_third_part on knowledge_file_bytes`);
      await t.database.db.execute(sql`drop function refuse_third_part()`);
    }
    expect((await user.ok(filesApi.list, {})).items).toEqual([]);
    expect((await user.ok(usageApi.mine, {})).storage).toMatchObject({ usedBytes: 0, files: 0 });
    expect(await looseParts()).toBe(0);

    const bytes = imageBytes(4 * FILE_PART_BYTES);
    const res = await upload(user, "big.png", bytes);
    expect(res.status).toBe(201);
    expect(sha((await content(user, res.data.id)).response.rawPayload)).toBe(sha(bytes));
  });

  it("deleting a file deletes its parts; the sweep takes parts without a row once they are an hour old, and no others", async () => {
    const user = (await registerAndSignIn(t.app)).client;
    const res = await upload(user, "gone.png", imageBytes(2 * FILE_PART_BYTES + 1));
    const gone = res.data.id;
    expect((await partsOf(gone)).length).toBe(3);
    expect((await user.call(filesApi.delete, { params: { id: gone } })).status).toBe(204);
    expect(await partsOf(gone)).toEqual([]);

    // What a process killed while writing leaves: parts under a reserved id, no row. One such upload an hour old,
    // one still under way, and a stored file whose parts are as old (a row's parts are never loose).
    const { db } = t.database;
    const store = databaseFileStore(db);
    const crashed = await reserveFileId(db);
    await store.put(db, { id: crashed, userId: 1 }, imageBytes(2 * FILE_PART_BYTES));
    const writing = await reserveFileId(db);
    await store.put(db, { id: writing, userId: 1 }, imageBytes(10));
    const kept = (await upload(user, "kept.png", imageBytes(FILE_PART_BYTES + 5))).data;
    await db.execute(
      sql`update knowledge_file_bytes set written_at = now() - interval '61 minutes' where file_id = ${crashed} or file_id = ${kept.id}`,
    );

    expect(await sweepLooseParts(db)).toBe(2);
    expect(await partsOf(crashed)).toEqual([]);
    expect((await partsOf(writing)).length).toBe(1);
    expect((await partsOf(kept.id)).length).toBe(2);
    // With no time left to wait (as after a kill -9 in the test below), the upload under way goes too.
    expect(await sweepLooseParts(db, "0 seconds")).toBe(1);
    expect(await looseParts()).toBe(0);
    expect((await content(user, kept.id)).status).toBe(200);
  });
});
