import path from "node:path";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { quoteIdent, tablesOf } from "../../src/server/db/backup/dump.js";
import type { SqlSession } from "../../src/server/db/backup/sessions.js";
import { openDatabase } from "../../src/server/db/client.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { buildTestApp, CookieClient, newAccount } from "./build-test-app.js";
import { pointPlatformAt } from "./chat-setup.js";
import { settledFile } from "./knowledge-files.js";
import { multipartFile, TINY_PNG } from "./multipart.js";

/** The app on the embedded database of `dataDir` (its app secret generated into the folder, as a real install's), or on `url`. */
export async function appOn(where: { dataDir: string; url?: string; appSecret?: string }) {
  const database = await openDatabase(where.url ? { url: where.url, poolSize: 3 } : { pgliteDir: path.join(where.dataDir, "pglite") });
  return buildTestApp({ database, env: { DATA_DIR: where.dataDir, DATABASE_URL: where.url, APP_SECRET: where.appSecret } });
}

export interface Populated {
  admin: { username: string; password: string };
  user: { username: string; password: string };
  chatId: number;
  avatarUrl: string;
  fileId: number;
  fileBytes: Buffer;
  courseId: number;
  platformId: number;
}

/**
 * A database used as people use it, through the API: an admin whose OpenAI platform has a stored (sealed) key pointed at
 * `fake`, a user with settings, an avatar, a chat with a reply, a library file and a course.
 */
export async function populate(app: FastifyInstance, fake: FakeProvider): Promise<Populated> {
  const signUp = async () => {
    const body = newAccount();
    const client = new CookieClient(app);
    const res = await client.post("/api/register", body);
    expect(res.statusCode, res.body).toBe(201);
    return { client, body };
  };
  const admin = await signUp();
  const user = await signUp();
  const platform = await pointPlatformAt(admin.client, "openai", fake);
  expect((await user.client.patch("/api/user/settings", { temperature: "0.3" })).statusCode).toBe(200);
  const avatar = await user.client.request({
    method: "POST",
    url: "/api/user/avatar",
    ...multipartFile("file", "me.png", "image/png", TINY_PNG),
  });
  expect(avatar.statusCode, avatar.body).toBe(200);
  const chat = await user.client.post("/api/chats", {});
  expect(chat.statusCode).toBe(201);
  const chatId = (chat.json() as { id: number }).id;
  const reply = await user.client.post(`/api/chats/${chatId}/reply`, { content: "What is a cell?" });
  expect(reply.statusCode, reply.body).toBe(200);
  const fileBytes = Buffer.from(`# Cells\n\n${"A cell is the smallest unit of life. ".repeat(400)}\n`);
  const upload = await user.client.request({
    method: "POST",
    url: "/api/files",
    ...multipartFile("file", "cells.md", "text/markdown", fileBytes),
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const file = await settledFile(user.client, (upload.json() as { id: number }).id);
  expect(file.status).toBe("ready");
  const course = await admin.client.post("/api/courses", { title: "Biology", isPublic: true, status: "published" });
  expect(course.statusCode, course.body).toBe(201);
  return {
    admin: { username: admin.body.username, password: admin.body.password },
    user: { username: user.body.username, password: user.body.password },
    chatId,
    avatarUrl: (avatar.json() as { avatarUrl: string }).avatarUrl,
    fileId: file.id,
    fileBytes,
    courseId: (course.json() as { id: number }).id,
    platformId: platform.id,
  };
}

/** Each public table's row count and the md5 of its rows (as text, in its primary key's order). */
export async function tableDigests(session: SqlSession): Promise<Record<string, { rows: number; md5: string }>> {
  await session.query("set timezone = 'UTC'");
  const digests: Record<string, { rows: number; md5: string }> = {};
  for (const table of await tablesOf(session)) {
    const order = table.key.map((column) => `t.${quoteIdent(column.name)}`).join(", ");
    const [row] = await session.query<{ rows: number; md5: string }>(
      `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by ${order}), '')) as md5 from ${quoteIdent(table.name)} t`,
    );
    if (row) digests[table.name] = row;
  }
  return digests;
}

/** Signs in through the API. */
export async function signIn(app: FastifyInstance, account: { username: string; password: string }): Promise<CookieClient> {
  const client = new CookieClient(app);
  const res = await client.post("/api/login", account);
  expect(res.statusCode, res.body).toBe(200);
  return client;
}

/** What the restored app answers from the populated data: the user's files and chat, and the admin's sealed key at work. */
export async function expectServed(app: FastifyInstance, data: Populated, fake: FakeProvider): Promise<void> {
  const user = await signIn(app, data.user);
  const me = (await user.get("/api/user")).json() as { avatarUrl: string; username: string };
  expect(me).toMatchObject({ username: data.user.username, avatarUrl: data.avatarUrl });
  const avatar = await user.get(data.avatarUrl);
  expect(avatar.statusCode).toBe(200);
  expect(avatar.rawPayload.equals(TINY_PNG)).toBe(true);
  const content = await user.get(`/api/files/${data.fileId}/content`);
  expect(content.statusCode).toBe(200);
  expect(content.rawPayload.equals(data.fileBytes)).toBe(true);
  const chat = await user.get(`/api/chats/${data.chatId}`);
  expect(chat.statusCode).toBe(200);
  expect(JSON.stringify(chat.json())).toContain("What is a cell?");
  expect((await user.get(`/api/courses/${data.courseId}`)).statusCode).toBe(200);
  // The stored key opens with the restored secret: the platform test reaches the provider with it.
  const admin = await signIn(app, data.admin);
  const before = fake.requests.length;
  const tested = await admin.post(`/api/admin/ai-platforms/${data.platformId}/test`, {});
  expect(tested.statusCode, tested.body).toBe(200);
  expect(fake.requests.slice(before).at(-1)?.headers.authorization).toBe("Bearer sk-test-valid-key-123456");
}
