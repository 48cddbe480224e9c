// The library's bytes in an S3-compatible object store (issue 30, decision 035): with S3_* set, an upload puts the
// object under files/<userId>/<fileId>-<random>, the content comes back from it, and deleting the file (or its
// collection) removes the object. Half the S3 variables stop the start with a message naming what is missing.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { collectionsApi, filesApi } from "../../src/shared/contracts/knowledge.js";
import { type S3Fake, startS3Fake } from "../fakes/s3-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile } from "../helpers/multipart.js";

let s3: S3Fake;
let t: TestApp;
let admin: CookieClient;
let user: CookieClient;
let userId: number;

beforeAll(async () => {
  s3 = await startS3Fake();
  t = await buildTestApp({ env: s3.env });
  admin = (await registerAndSignIn(t.app)).client;
  const account = await registerAndSignIn(t.app);
  user = account.client;
  userId = account.user.id;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const uploadAs = (client: CookieClient, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) =>
  client.call(filesApi.upload, {}, { multipart: multipartFile("file", name, "text/plain", bytes, fields) });
const upload = (name: string, body: string) => uploadAs(user, name, new TextEncoder().encode(body));

describe("S3 file store", () => {
  it("upload → content → delete goes through the object store, and the object is gone after", async () => {
    const res = await upload("notes.md", "# Notes\n\nStored in S3.");
    expect(res.status).toBe(201);
    const file = res.data;
    const row = (
      await t.database.db.execute<{ storage: string; storage_key: string }>(
        sql`select storage, storage_key from knowledge_files where id = ${file.id}`,
      )
    ).rows[0];
    expect(row?.storage).toBe("s3");
    expect(row?.storage_key).toMatch(new RegExp(`^files/${userId}/${file.id}-[0-9a-f]{24}$`));
    // Not in the database.
    const inDb = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from knowledge_file_bytes where file_id = ${file.id}`,
    );
    expect(inDb.rows[0]?.n).toBe(0);
    expect(await s3.keys()).toEqual([row?.storage_key]);

    // The bytes as sent (the contract types no answer for a download).
    const content = await user.call(filesApi.content, { params: { id: file.id } });
    expect(content.status).toBe(200);
    expect(content.response.body).toBe("# Notes\n\nStored in S3.");
    expect(content.headers["content-type"]).toBe("text/markdown; charset=utf-8");

    expect((await user.call(filesApi.delete, { params: { id: file.id } })).status).toBe(204);
    expect(await s3.keys()).toEqual([]);
  });

  it("deleting a collection removes its files' objects", async () => {
    const collection = await user.ok(collectionsApi.create, { body: { name: "In S3" } });
    const inCollection = await uploadAs(user, "a.txt", new TextEncoder().encode("alpha"), { collectionId: String(collection.id) });
    expect(inCollection.status).toBe(201);
    const loose = await upload("loose.txt", "kept");
    expect(await s3.keys()).toHaveLength(2);
    expect((await user.call(collectionsApi.delete, { params: { id: collection.id } })).status).toBe(204);
    const left = await s3.keys();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^files/${userId}/${loose.data.id}-`));
  });

  it("an admin deleting an account removes its files' objects too (issue 30 review), and nobody else's", async () => {
    const leaving = await registerAndSignIn(t.app);
    for (const name of ["one.txt", "two.txt"]) {
      const res = await uploadAs(leaving.client, name, new TextEncoder().encode(name));
      expect(res.status).toBe(201);
    }
    const before = await s3.keys();
    expect(before.filter((key) => key.startsWith(`files/${leaving.user.id}/`))).toHaveLength(2);
    expect((await admin.call(adminUsersApi.remove, { params: { id: leaving.user.id } })).status).toBe(204);
    const after = await s3.keys();
    expect(after.filter((key) => key.startsWith(`files/${leaving.user.id}/`))).toEqual([]);
    expect(after).toEqual(before.filter((key) => !key.startsWith(`files/${leaving.user.id}/`)));
  });

  it("a store that cannot be reached fails the upload with nothing kept", async () => {
    const down = await buildTestApp({ env: { ...s3.env, S3_ENDPOINT: "http://127.0.0.1:9" } });
    try {
      await registerAndSignIn(down.app);
      const someone = (await registerAndSignIn(down.app)).client;
      const res = await uploadAs(someone, "a.txt", Buffer.from("a"));
      expect({ status: res.status, message: res.error.message }).toEqual({
        status: 503,
        message: "The file store could not be reached. Please try again in a moment.",
      });
      expect((await someone.ok(filesApi.list, {})).items).toEqual([]);
    } finally {
      await down.close();
    }
  }, 120_000);

  it("some but not all S3 variables stop the start with a message", () => {
    expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:1", S3_BUCKET: "b" })).toThrow(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY \(or none, to keep files in the database\); missing: S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: "not a url", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(loadConfig({}).S3_REGION).toBe("us-east-1");
  });
});
