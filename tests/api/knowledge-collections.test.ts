// The knowledge library's collections (issue 30): CRUD with each collection's file count and bytes, names checked,
// deleting a collection deletes its files, their bytes and pieces.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectionsApi, FILE_LIMIT_MESSAGES, filesApi } from "../../src/shared/contracts/knowledge.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let user: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  await registerAndSignIn(t.app); // the first account is the admin
  user = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

async function uploadInto(collectionId: number, name: string, body: string) {
  const multipart = multipartFile("file", name, "text/plain", new TextEncoder().encode(body), { collectionId: String(collectionId) });
  const res = await user.call(filesApi.upload, {}, { multipart });
  expect(res.status).toBe(201);
  return res.data;
}
const create = (name: string) => user.call(collectionsApi.create, { body: { name } });
const rename = (id: number, name: string) => user.call(collectionsApi.update, { params: { id }, body: { name } });
const remove = (id: number) => user.call(collectionsApi.delete, { params: { id } });
const collections = () => user.ok(collectionsApi.list, {});

const count = async (query: ReturnType<typeof sql>) => Number((await t.database.db.execute<{ n: number }>(query)).rows[0]?.n ?? 0);

describe("collections", () => {
  it("creates, lists by name with file counts and sizes, renames", async () => {
    const bio = await create("  Biology 101 ");
    expect(bio.status).toBe(201);
    expect(bio.data).toMatchObject({ name: "Biology 101", fileCount: 0, size: 0 });
    const hand = (await create("Company handbook")).data;
    const file = await uploadInto(bio.data.id, "cells.txt", "cells are small");
    expect(file.collectionId).toBe(bio.data.id);
    await uploadInto(bio.data.id, "more.txt", "12345");
    const list = await collections();
    expect(list.map((c) => [c.name, c.fileCount, c.size])).toEqual([
      ["Biology 101", 2, 20],
      ["Company handbook", 0, 0],
    ]);
    const renamed = await rename(hand.id, "Handbook 2026");
    expect(renamed.data).toMatchObject({ id: hand.id, name: "Handbook 2026", fileCount: 0 });
    const renamedFull = await rename(bio.data.id, "Biology");
    expect(renamedFull.data).toMatchObject({ name: "Biology", fileCount: 2, size: 20 });
  });

  it("refuses bad names (400) and unknown ids (404)", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: 5 }]) {
      expect((await user.call(collectionsApi.create, { body: { name: "Fine" } }, { rawBody: body })).status).toBe(400);
    }
    expect((await rename(999999, "x")).error).toEqual({ message: FILE_LIMIT_MESSAGES.collectionNotFound });
    expect((await remove(999999)).status).toBe(404);
    expect((await user.call(filesApi.list, { query: { collectionId: 999999 } })).status).toBe(404);
  });

  it("deleting a collection deletes its files, their bytes and pieces, and nothing else", async () => {
    const doomed = (await create("Doomed")).data;
    const kept = (await create("Kept")).data;
    const a = await uploadInto(doomed.id, "a.txt", "alpha");
    const b = await uploadInto(kept.id, "b.txt", "beta");
    // The ingestion worker reads both files into pieces first, so the delete has pieces to remove and to keep.
    expect((await settledFile(user, a.id)).status).toBe("ready");
    expect((await settledFile(user, b.id)).status).toBe("ready");
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${a.id}`)).toBeGreaterThan(0);
    const keptPieces = await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${b.id}`);
    expect(keptPieces).toBeGreaterThan(0);
    const res = await remove(doomed.id);
    expect(res.status).toBe(204);
    expect(await count(sql`select count(*)::int as n from knowledge_files where id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_file_bytes where file_id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${b.id}`)).toBe(keptPieces);
    expect((await user.call(filesApi.get, { params: { id: b.id } })).status).toBe(200);
    expect((await collections()).map((c) => c.id)).not.toContain(doomed.id);
  });
});
