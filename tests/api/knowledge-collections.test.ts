// The knowledge library's collections (issue 30): CRUD with each collection's file count and bytes, names checked,
// deleting a collection deletes its files, their bytes and pieces.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILE_LIMIT_MESSAGES } from "../../src/shared/contracts/knowledge.js";
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
  const form = multipartFile("file", name, "text/plain", new TextEncoder().encode(body));
  const boundary = form.headers["content-type"].split("boundary=")[1];
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="collectionId"\r\n\r\n${collectionId}\r\n`),
    form.payload,
  ]);
  const res = await user.request({ method: "POST", url: "/api/files", payload, headers: form.headers });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; collectionId: number };
}

const count = async (query: ReturnType<typeof sql>) => Number((await t.database.db.execute<{ n: number }>(query)).rows[0]?.n ?? 0);

describe("collections", () => {
  it("creates, lists by name with file counts and sizes, renames", async () => {
    const bio = await user.post("/api/collections", { name: "  Biology 101 " });
    expect(bio.statusCode).toBe(201);
    expect(bio.json()).toMatchObject({ name: "Biology 101", fileCount: 0, size: 0 });
    const hand = (await user.post("/api/collections", { name: "Company handbook" })).json();
    const file = await uploadInto(bio.json().id, "cells.txt", "cells are small");
    expect(file.collectionId).toBe(bio.json().id);
    await uploadInto(bio.json().id, "more.txt", "12345");
    const list = (await user.get("/api/collections")).json();
    expect(list.map((c: { name: string; fileCount: number; size: number }) => [c.name, c.fileCount, c.size])).toEqual([
      ["Biology 101", 2, 20],
      ["Company handbook", 0, 0],
    ]);
    const renamed = await user.patch(`/api/collections/${hand.id}`, { name: "Handbook 2026" });
    expect(renamed.json()).toMatchObject({ id: hand.id, name: "Handbook 2026", fileCount: 0 });
    const renamedFull = await user.patch(`/api/collections/${bio.json().id}`, { name: "Biology" });
    expect(renamedFull.json()).toMatchObject({ name: "Biology", fileCount: 2, size: 20 });
  });

  it("refuses bad names (400) and unknown ids (404)", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: 5 }]) {
      expect((await user.post("/api/collections", body)).statusCode).toBe(400);
    }
    expect((await user.patch("/api/collections/999999", { name: "x" })).json()).toEqual({
      message: FILE_LIMIT_MESSAGES.collectionNotFound,
    });
    expect((await user.request({ method: "DELETE", url: "/api/collections/999999" })).statusCode).toBe(404);
    expect((await user.get("/api/files?collectionId=999999")).statusCode).toBe(404);
  });

  it("deleting a collection deletes its files, their bytes and pieces, and nothing else", async () => {
    const doomed = (await user.post("/api/collections", { name: "Doomed" })).json();
    const kept = (await user.post("/api/collections", { name: "Kept" })).json();
    const a = await uploadInto(doomed.id, "a.txt", "alpha");
    const b = await uploadInto(kept.id, "b.txt", "beta");
    // The ingestion worker reads both files into pieces first, so the delete has pieces to remove and to keep.
    expect((await settledFile(user, a.id)).status).toBe("ready");
    expect((await settledFile(user, b.id)).status).toBe("ready");
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${a.id}`)).toBeGreaterThan(0);
    const keptPieces = await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${b.id}`);
    expect(keptPieces).toBeGreaterThan(0);
    const res = await user.request({ method: "DELETE", url: `/api/collections/${doomed.id}` });
    expect(res.statusCode).toBe(204);
    expect(await count(sql`select count(*)::int as n from knowledge_files where id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_file_bytes where file_id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${a.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${b.id}`)).toBe(keptPieces);
    expect((await user.get(`/api/files/${b.id}`)).statusCode).toBe(200);
    expect((await user.get("/api/collections")).json().map((c: { id: number }) => c.id)).not.toContain(doomed.id);
  });
});
