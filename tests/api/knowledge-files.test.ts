// The knowledge library's files (issue 30, decision 035): upload typed by bytes, the plan's limits (held under a
// per-user lock, so parallel uploads never overshoot), another user's file or collection is a 404 for every verb,
// signed out is a 401, deleting removes the bytes and every piece, the content's headers, retry.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_A_PDF_MESSAGE, NOT_AN_IMAGE_MESSAGE, UNSUPPORTED_FILE_MESSAGE } from "../../src/server/modules/knowledge/reading/file-kind.js";
import { collectionsApi, FILE_LIMIT_MESSAGES, filesApi, type KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import { planAllowancesApi, planStorageLimitsApi, usageApi } from "../../src/shared/contracts/usage.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { makeDocx, makePdf } from "../helpers/make-pdf.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

const MB = 1024 * 1024;
type Limits = { storageBytes: number | null; maxFiles: number | null; maxFileBytes: number | null };
const NO_LIMITS: Limits = { storageBytes: null, maxFiles: null, maxFileBytes: null };

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let other: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  owner = (await registerAndSignIn(t.app)).client;
  other = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

/** A multipart body: the file (field "file") and, when given, a collectionId field. */
const fileForm = (name: string, bytes: Uint8Array, collectionId?: number | string) =>
  multipartFile("file", name, "application/octet-stream", bytes, collectionId === undefined ? {} : { collectionId: String(collectionId) });

const upload = (client: CookieClient, name: string, bytes: Uint8Array, collectionId?: number | string) =>
  client.call(filesApi.upload, {}, { multipart: fileForm(name, bytes, collectionId) });

async function uploaded(client: CookieClient, name: string, bytes: Uint8Array, collectionId?: number): Promise<KnowledgeFile> {
  const res = await upload(client, name, bytes, collectionId);
  expect({ name, status: res.status, body: res.status === 201 ? "" : res.response.body }).toEqual({ name, status: 201, body: "" });
  return res.data;
}
const idsOf = (files: { id: number }[]) => files.map((f) => f.id);

const text = (value: string) => new TextEncoder().encode(value);

async function setStorageLimits(free: Limits, earlyAccess: Limits = NO_LIMITS) {
  const res = await admin.call(planStorageLimitsApi.update, { body: { free, earlyAccess } });
  expect(res.status).toBe(200);
}

async function freshUser() {
  return (await registerAndSignIn(t.app)).client;
}

async function count(query: ReturnType<typeof sql>) {
  const result = await t.database.db.execute<{ n: number }>(query);
  return Number(result.rows[0]?.n ?? 0);
}

describe("upload", () => {
  it("stores each kind, typed by its bytes, queued, with the issue's fields", async () => {
    const pdf = await makePdf(["Page one about cells."]);
    const docx = makeDocx([{ heading: 1, text: "Handbook" }, { text: "Holidays are in August." }]);
    const cases: [string, Uint8Array, string, string][] = [
      ["notes.txt", text("plain notes"), "text", "text/plain"],
      ["readme.md", text("# Title\n\nBody"), "markdown", "text/markdown"],
      ["page.html", text("<h1>Hi</h1><script>alert(1)</script>"), "html", "text/html"],
      ["table.csv", text("a,b\n1,2\n"), "csv", "text/csv"],
      ["data.json", text('{"a":1}'), "json", "application/json"],
      ["main.ts", text("export const x = 1;\n"), "code", "text/plain"],
      ["pixel.png", TINY_PNG, "image", "image/png"],
      ["paper.pdf", pdf, "pdf", "application/pdf"],
      ["handbook.docx", docx, "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ];
    for (const [name, bytes, kind, type] of cases) {
      const file = await uploaded(owner, name, bytes);
      expect(file).toMatchObject({
        name,
        size: bytes.byteLength,
        kind,
        type,
        status: "queued",
        error: null,
        collectionId: null,
        pages: null,
      });
      const row = await t.database.db.execute<{ sha256: string; storage: string }>(
        sql`select sha256, storage from knowledge_files where id = ${file.id}`,
      );
      expect(row.rows[0]?.storage).toBe("db");
      expect(row.rows[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("types by bytes, never by name: a PNG named .md is an image; text named .png or .pdf and binary junk are refused with detectFile's words", async () => {
    expect(await uploaded(owner, "looks-like-notes.md", TINY_PNG)).toMatchObject({ kind: "image", type: "image/png" });
    for (const [name, bytes, message] of [
      ["photo.png", text("not an image at all"), NOT_AN_IMAGE_MESSAGE],
      ["paper.pdf", text("plain text wearing a .pdf name"), NOT_A_PDF_MESSAGE],
      ["blob.bin", new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7]), UNSUPPORTED_FILE_MESSAGE],
    ] as const) {
      const res = await upload(owner, name, bytes);
      expect({ name, status: res.status, message: res.error.message }).toEqual({ name, status: 415, message });
    }
    const empty = await upload(owner, "empty.txt", new Uint8Array());
    expect({ status: empty.status, message: empty.error.message }).toEqual({ status: 400, message: "This file is empty." });
  });

  it("refuses a body that is not a file: JSON, no file part, a bad collectionId, two files", async () => {
    const json = await owner.call(filesApi.upload, {}, { rawBody: { file: "x" } });
    expect(json.status).toBe(415);
    // Multipart bodies written by hand (no file part, two files, cut short): sent raw.
    const boundary = "----nofile";
    const noFile = await owner
      .call(
        filesApi.upload,
        {},
        {
          multipart: {
            payload: `--${boundary}\r\nContent-Disposition: form-data; name="collectionId"\r\n\r\n1\r\n--${boundary}--\r\n`,
            headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
          },
        },
      )
      .then((called) => called.response);
    expect({ status: noFile.statusCode, message: noFile.json().message }).toEqual({ status: 400, message: FILE_LIMIT_MESSAGES.noFile });
    const badCollection = await upload(owner, "a.txt", text("a"), "abc");
    expect(badCollection.status).toBe(400);
    const two = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\na\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.txt"\r\n\r\nb\r\n--${boundary}--\r\n`),
    ]);
    const twoFiles = await owner
      .call(filesApi.upload, {}, { multipart: { payload: two, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } })
      .then((called) => called.response);
    expect(twoFiles.statusCode).toBe(413);
    const cut = await owner
      .call(
        filesApi.upload,
        {},
        {
          multipart: {
            payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc`,
            headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
          },
        },
      )
      .then((called) => called.response);
    expect(cut.statusCode).toBe(400);
  });

  it("keeps a clean name: no path, no control characters", async () => {
    const file = await uploaded(owner, "..\\..\\etc/pass\u0007wd.txt", text("x"));
    expect(file.name).toBe("passwd.txt");
  });
});

describe("plan limits", () => {
  it("refuses a file larger than the plan allows (413, before it is stored), with the size in the words", async () => {
    await setStorageLimits(
      { storageBytes: 50 * MB, maxFiles: 20, maxFileBytes: 1 * MB },
      { storageBytes: null, maxFiles: null, maxFileBytes: 5 * MB },
    );
    try {
      const user = await freshUser();
      const big = new Uint8Array(1 * MB + 10).fill(97);
      const res = await upload(user, "big.txt", big);
      expect({ status: res.status, message: res.error.message }).toEqual({
        status: 413,
        message: "This file is larger than your plan allows (1 MB). Get Early Access for larger files.",
      });
      const list = await user.ok(filesApi.list, {});
      expect(list.items).toEqual([]);
      // At the limit exactly it goes.
      expect((await upload(user, "fits.txt", new Uint8Array(1 * MB).fill(97))).status).toBe(201);
      // Admins are unlimited.
      expect((await upload(admin, "big.txt", big)).status).toBe(201);
    } finally {
      await setStorageLimits(NO_LIMITS);
    }
  });

  it("refuses a file that would go over the number of files or the storage (409), with numbers", async () => {
    await setStorageLimits(
      { storageBytes: 100, maxFiles: 2, maxFileBytes: null },
      { storageBytes: null, maxFiles: null, maxFileBytes: null },
    );
    try {
      const user = await freshUser();
      await uploaded(user, "a.txt", new Uint8Array(60).fill(97));
      const over = await upload(user, "b.txt", new Uint8Array(41).fill(97));
      expect({ status: over.status, message: over.error.message }).toEqual({
        status: 409,
        // Decision 061: not "full" while 40 bytes are left; the file is what does not fit.
        message:
          "This file (41 bytes) does not fit in your plan's storage (100 bytes): 40 bytes is left. Delete some files or get Early Access.",
      });
      await uploaded(user, "b.txt", new Uint8Array(40).fill(97));
      // Full now: any file says so (the count is raised so the storage is what refuses).
      await setStorageLimits(
        { storageBytes: 100, maxFiles: 5, maxFileBytes: null },
        { storageBytes: null, maxFiles: null, maxFileBytes: null },
      );
      const full = await upload(user, "c.txt", new Uint8Array(1).fill(97));
      expect({ status: full.status, message: full.error.message }).toEqual({
        status: 409,
        message: "Your plan's storage (100 bytes) is full. Delete some files or get Early Access.",
      });
      await setStorageLimits(
        { storageBytes: 100, maxFiles: 2, maxFileBytes: null },
        { storageBytes: null, maxFiles: null, maxFileBytes: null },
      );
      const third = await upload(user, "c.txt", text("c"));
      expect({ status: third.status, message: third.error.message }).toEqual({
        status: 409,
        message: "Your plan keeps up to 2 files. Delete some files or get Early Access.",
      });
      // Early Access users see no upgrade advice when Early Access is what they have.
      await setStorageLimits(NO_LIMITS, { storageBytes: null, maxFiles: 1, maxFileBytes: null });
      const earlyAccount = await registerAndSignIn(t.app);
      // The limits are read from the user's row each time, so the plan changed in the database counts at once.
      await t.database.db.execute(sql`update users set plan_type = 'earlyAccess' where id = ${earlyAccount.user.id}`);
      const early = earlyAccount.client;
      await uploaded(early, "one.txt", text("1"));
      const refused = await upload(early, "two.txt", text("2"));
      expect(refused.error.message).toBe("Your plan keeps up to 1 file. Delete some files to make room.");
    } finally {
      await setStorageLimits(NO_LIMITS);
    }
  });

  it("five parallel uploads against a limit of 3 files store exactly 3", async () => {
    await setStorageLimits({ storageBytes: null, maxFiles: 3, maxFileBytes: null });
    try {
      const user = await freshUser();
      const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => upload(user, `f${n}.txt`, text(`file ${n}`))));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 201, 201, 409, 409]);
      expect((await user.ok(filesApi.list, {})).items).toHaveLength(3);
      // A refused upload leaves no bytes behind, even one refused after its bytes were written (decision 074).
      expect(
        await count(
          sql`select count(*) as n from knowledge_file_bytes b where not exists (select 1 from knowledge_files f where f.id = b.file_id)`,
        ),
      ).toBe(0);
    } finally {
      await setStorageLimits(NO_LIMITS);
    }
  });

  it("the usage meter answers storage used, files and the plan's limits", async () => {
    await setStorageLimits({ storageBytes: 50 * MB, maxFiles: 20, maxFileBytes: 50 * MB });
    try {
      const user = await freshUser();
      await uploaded(user, "a.txt", new Uint8Array(1000).fill(97));
      const usage = await user.ok(usageApi.mine, {});
      expect(usage.storage).toEqual({ usedBytes: 1000, files: 1, storageBytes: 50 * MB, maxFiles: 20, maxFileBytes: 50 * MB });
      const adminUsage = await admin.ok(usageApi.mine, {});
      expect(adminUsage.storage).toMatchObject({ storageBytes: null, maxFiles: null, maxFileBytes: null });
    } finally {
      await setStorageLimits(NO_LIMITS);
    }
  });

  it("the admin reads and sets the library limits; others are refused; bad values are 400", async () => {
    const saved = await admin.ok(planStorageLimitsApi.update, {
      body: { free: { storageBytes: 10 * MB, maxFiles: 5, maxFileBytes: 2 * MB }, earlyAccess: NO_LIMITS },
    });
    expect(saved).toEqual({ free: { storageBytes: 10 * MB, maxFiles: 5, maxFileBytes: 2 * MB }, earlyAccess: NO_LIMITS });
    // The token allowances are untouched.
    expect((await admin.call(planAllowancesApi.get, {})).status).toBe(200);
    expect((await owner.call(planStorageLimitsApi.get, {})).status).toBe(403);
    expect((await callApp(t.app, planStorageLimitsApi.get, {})).status).toBe(401);
    for (const free of [
      { storageBytes: 0, maxFiles: 1, maxFileBytes: 1 },
      { storageBytes: 1, maxFiles: 1.5, maxFileBytes: 1 },
      { storageBytes: 1, maxFiles: 1, maxFileBytes: 600 * MB },
    ]) {
      const res = await admin.call(planStorageLimitsApi.update, { body: { free, earlyAccess: NO_LIMITS } });
      expect(res.status).toBe(400);
    }
    await setStorageLimits(NO_LIMITS);
  });
});

describe("one file", () => {
  it("lists newest first, paged, filtered by collection; gets, renames, moves in and out", async () => {
    const user = await freshUser();
    const collection = await user.ok(collectionsApi.create, { body: { name: "Biology 101" } });
    const a = await uploaded(user, "a.txt", text("a"));
    const b = await uploaded(user, "b.txt", text("b"), collection.id);
    const c = await uploaded(user, "c.txt", text("c"));
    const first = await user.ok(filesApi.list, { query: { limit: 2 } });
    expect(idsOf(first.items)).toEqual([c.id, b.id]);
    const cursor = first.nextCursor;
    expect(cursor).toBe(String(b.id));
    expect(idsOf((await user.ok(filesApi.list, { query: { limit: 2, cursor: cursor ?? undefined } })).items)).toEqual([a.id]);
    expect(idsOf((await user.ok(filesApi.list, { query: { collectionId: String(collection.id) } })).items)).toEqual([b.id]);
    // A cursor that is not an id (over 2^31, or not a number) is a 400 with words, never a database error.
    for (const bad of ["9999999999", "abc", "-1"]) {
      const res = await user.call(filesApi.list, { query: { cursor: bad } });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }

    const params = { id: a.id };
    expect(await user.ok(filesApi.get, { params })).toMatchObject({ id: a.id, name: "a.txt" });
    const renamed = await user.ok(filesApi.update, { params, body: { name: "Alpha notes.txt" } });
    expect(renamed).toMatchObject({ name: "Alpha notes.txt", collectionId: null });
    const moved = await user.ok(filesApi.update, { params, body: { collectionId: collection.id } });
    expect(moved).toMatchObject({ collectionId: collection.id });
    expect(await user.ok(collectionsApi.list, {})).toEqual([expect.objectContaining({ id: collection.id, fileCount: 2, size: 2 })]);
    const out = await user.ok(filesApi.update, { params, body: { collectionId: null } });
    expect(out).toMatchObject({ collectionId: null });
    expect((await user.call(filesApi.update, { params, body: {} })).status).toBe(400);
    expect((await user.call(filesApi.update, { params, body: { name: "  " } })).status).toBe(400);
  });

  it("serves the bytes with their type: attachment except images, nosniff, a sandbox CSP", async () => {
    const html = await uploaded(owner, "page.html", text("<script>alert(1)</script>"));
    const { status, response: res } = await owner.call(filesApi.content, { params: { id: html.id } });
    expect(status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(res.body).toBe("<script>alert(1)</script>");

    const image = await uploaded(owner, "Photo é.png", TINY_PNG);
    const imageRes = (await owner.call(filesApi.content, { params: { id: image.id } })).response;
    expect(imageRes.headers["content-type"]).toBe("image/png");
    expect(imageRes.headers["content-disposition"]).toBe(`inline; filename="Photo _.png"; filename*=UTF-8''Photo%20%C3%A9.png`);
    expect(imageRes.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it("retry: a failed file goes back to the queue from the start; any other state is a 409", async () => {
    const file = await uploaded(owner, "r.txt", text("retry me"));
    // Once the worker is done with it, so that it does not write over the failure set below.
    expect((await settledFile(owner, file.id)).status).toBe("ready");
    const params = { id: file.id };
    const queued = await owner.call(filesApi.retry, { params });
    expect({ status: queued.status, message: queued.error.message }).toEqual({ status: 409, message: FILE_LIMIT_MESSAGES.notFailed });
    await t.database.db.execute(
      sql`update knowledge_files set status = 'failed', attempts = 5, error = 'Could not read it', progress_done = 3, progress_total = 9 where id = ${file.id}`,
    );
    expect(await owner.ok(filesApi.get, { params })).toMatchObject({ status: "failed", error: "Could not read it" });
    const retried = await owner.call(filesApi.retry, { params });
    expect(retried.status).toBe(200);
    expect(retried.data).toMatchObject({ status: "queued", error: null, progressDone: 0, progressTotal: 0 });
    const row = await t.database.db.execute<{ attempts: number }>(sql`select attempts from knowledge_files where id = ${file.id}`);
    expect(row.rows[0]?.attempts).toBe(0);
  });

  it("delete removes the row, its bytes and every piece read from it", async () => {
    const file = await uploaded(owner, "gone.txt", text("soon gone"));
    // The ingestion worker reads it into pieces first, so the delete has pieces to remove.
    expect((await settledFile(owner, file.id)).status).toBe("ready");
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${file.id}`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from knowledge_file_bytes where file_id = ${file.id}`)).toBe(1);
    const params = { id: file.id };
    const res = await owner.call(filesApi.delete, { params });
    expect(res.status).toBe(204);
    expect(await count(sql`select count(*)::int as n from knowledge_chunks where file_id = ${file.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from knowledge_file_bytes where file_id = ${file.id}`)).toBe(0);
    expect((await owner.call(filesApi.get, { params })).status).toBe(404);
    expect((await owner.call(filesApi.delete, { params })).status).toBe(404);
  });
});

describe("ownership and sign-in", () => {
  it("another user's file and collection are a 404 for every verb, and nothing of theirs changes", async () => {
    const collection = await owner.ok(collectionsApi.create, { body: { name: "Mine" } });
    const file = await uploaded(owner, "mine.txt", text("private words"), collection.id);
    const mine = await other.ok(collectionsApi.create, { body: { name: "Theirs" } });
    const theirFile = await uploaded(other, "theirs.txt", text("t"));
    const params = { id: file.id };
    const inCollection = { id: collection.id };
    const attempts = [
      other.call(filesApi.get, { params }),
      other.call(filesApi.content, { params }),
      other.call(filesApi.update, { params, body: { name: "stolen" } }),
      other.call(filesApi.retry, { params }),
      other.call(filesApi.delete, { params }),
      other.call(filesApi.list, { query: { collectionId: String(collection.id) } }),
      other.call(collectionsApi.update, { params: inCollection, body: { name: "stolen" } }),
      other.call(collectionsApi.delete, { params: inCollection }),
      // Into someone else's collection: an upload, and a move of one's own file.
      upload(other, "sneak.txt", text("s"), collection.id),
      other.call(filesApi.update, { params: { id: theirFile.id }, body: { collectionId: collection.id } }),
      // One's own file into one's own collection works; the owner cannot move theirs into it.
      owner.call(filesApi.update, { params, body: { collectionId: mine.id } }),
    ];
    for (const { response: res, status } of await Promise.all(attempts))
      expect({ url: res.raw.req.url, status }).toEqual({ url: res.raw.req.url, status: 404 });
    expect(await owner.ok(filesApi.get, { params })).toMatchObject({ name: "mine.txt", collectionId: collection.id });
    expect(await owner.ok(collectionsApi.list, {})).toContainEqual(
      expect.objectContaining({ id: collection.id, name: "Mine", fileCount: 1 }),
    );
    expect(idsOf((await other.ok(filesApi.list, {})).items)).toEqual([theirFile.id]);
    expect(idsOf(await other.ok(collectionsApi.list, {}))).toEqual([mine.id]);
  });

  it("signed out: 401 for every route", async () => {
    const visitor = new CookieClient(t.app);
    const params = { id: 1 };
    const answers = await Promise.all([
      upload(visitor, "a.txt", text("a")),
      visitor.call(filesApi.list, {}),
      visitor.call(filesApi.get, { params }),
      visitor.call(filesApi.update, { params, body: { name: "x" } }),
      visitor.call(filesApi.delete, { params }),
      visitor.call(filesApi.content, { params }),
      visitor.call(filesApi.retry, { params }),
      visitor.call(collectionsApi.list, {}),
      visitor.call(collectionsApi.create, { body: { name: "x" } }),
      visitor.call(collectionsApi.update, { params, body: { name: "x" } }),
      visitor.call(collectionsApi.delete, { params }),
    ]);
    for (const { response: res, status } of answers)
      expect({ url: res.raw.req.url, status }).toEqual({ url: res.raw.req.url, status: 401 });
  });
});
