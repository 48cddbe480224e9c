// User Management (docs/product.md, Admin back office): admins list, search, filter,
// create, edit and delete users; disabling ends sessions and refuses sign-in; an admin never removes themselves
// nor the last admin, even when two requests race; deleting removes everything the user owned.
import { randomBytes } from "node:crypto";
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chats,
  courseModules,
  courses,
  lessons,
  messages,
  personalities,
  sessions,
  uploads,
  userActivityLogs,
  userSettings,
  users,
} from "../../src/server/db/schema/index.js";
import type { AppError } from "../../src/server/lib/app-error.js";
import type { Who } from "../../src/server/lib/who.js";
import { deleteUserAsAdmin, updateUserAsAdmin } from "../../src/server/modules/admin-users/admin-users-service.js";
import { sessionUserColumns } from "../../src/server/modules/sessions/public-user.js";
import {
  ACCOUNT_DISABLED_MESSAGE,
  type AdminUser,
  adminUsersApi,
  type CreateAdminUserBody,
  type UpdateAdminUserBody,
} from "../../src/shared/contracts/admin-users.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { coursesApi } from "../../src/shared/contracts/courses.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type CallInput, callApp, rawAddress } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

const AGENT = "AdminBrowser/1.0 (user management test)";
let t: TestApp;
let admin: CookieClient;
let member: CookieClient;
let memberId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const first = await registerAndSignIn(t.app);
  expect(first.user.role).toBe("admin");
  admin = first.client;
  const second = await registerAndSignIn(t.app);
  member = second.client;
  memberId = second.user.id;
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;
const unique = (prefix = "u") => `${prefix}${Date.now().toString(36)}${++serial}`;
const headers = { "user-agent": AGENT };
const edit = (client: CookieClient, id: number, body: UpdateAdminUserBody) =>
  client.call(adminUsersApi.update, { params: { id }, body }, { headers });
/** An edit with a body the contract refuses, sent as it is. */
const editRaw = (client: CookieClient, id: number, rawBody: unknown) =>
  client.call(adminUsersApi.update, { params: { id }, body: {} }, { headers, rawBody });
const remove = (client: CookieClient, id: number) => client.call(adminUsersApi.remove, { params: { id } }, { headers });
/** Raw requests for malformed ids in the path. */
const del = (client: CookieClient, url: string) => client.request({ method: "DELETE", url, headers });
const patch = (client: CookieClient, url: string, payload: Record<string, unknown>) =>
  client.request({ method: "PATCH", url, payload, headers });

/** Creates a user through the admin API and returns it with its password. */
async function createUser(over: Partial<CreateAdminUserBody> = {}) {
  const username = unique();
  const body = { username, name: "Grace Hopper", email: `${username}@example.com`, password: "Secr3t!pw", ...over };
  return { ...(await admin.ok(adminUsersApi.create, { body })), password: body.password };
}

async function signInAs(username: string, password: string) {
  const client = new CookieClient(t.app);
  const res = await client.call(authApi.login, { body: { username, password } });
  return { client, res };
}

async function list(query: CallInput<typeof adminUsersApi.list>["query"] = {}, client = admin) {
  const page = await client.ok(adminUsersApi.list, { query });
  return { items: page.items, next: page.nextCursor ?? undefined };
}

const logsOf = (userId: number | null, action: string) =>
  t.database.db
    .select()
    .from(userActivityLogs)
    .where(
      and(
        userId === null ? sql`${userActivityLogs.userId} is null` : eq(userActivityLogs.userId, userId),
        eq(userActivityLogs.action, action),
      ),
    );

describe("access", () => {
  it("refuses every admin call signed out (401) and to a non-admin (403), changing nothing", async () => {
    const target = await createUser();
    const calls: [string, (client: CookieClient) => Promise<{ status: number }>][] = [
      ["list", (c) => c.call(adminUsersApi.list, {})],
      ["summary", (c) => c.call(adminUsersApi.summary, {})],
      ["create", (c) => c.call(adminUsersApi.create, { body: { username: unique(), password: "Secr3t!pw", role: "admin" } })],
      ["update", (c) => c.call(adminUsersApi.update, { params: { id: target.id }, body: { role: "admin", status: "inactive" } })],
      ["promote self", (c) => c.call(adminUsersApi.update, { params: { id: memberId }, body: { role: "admin" } })],
      ["remove", (c) => c.call(adminUsersApi.remove, { params: { id: target.id } })],
    ];
    const anonymous = new CookieClient(t.app);
    for (const [name, call] of calls) {
      expect((await call(anonymous)).status, name).toBe(401);
      expect((await call(member)).status, name).toBe(403);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ role: "user", status: "active" });
    expect((await member.ok(userApi.me, {})).role).toBe("user");
  });
});

describe("creating a user", () => {
  it("answers 201 with the admin view, and the account signs in with that password", async () => {
    const username = unique("Mixed");
    const body = { username, name: "  Ada  ", email: `${username}@Example.COM`, password: "Secr3t!pw", role: "admin" as const };
    const res = await admin.call(
      adminUsersApi.create,
      { body },
      { rawBody: { ...body, planType: "earlyAccess", status: "inactive", id: 1, passwordHash: "forged" } },
    );
    expect(res.status, res.response.body).toBe(201);
    const created = res.data;
    // The keys as sent (the contract's parse would drop any other).
    expect(Object.keys(res.response.json()).sort()).toEqual([
      "avatarUrl",
      "createdAt",
      "email",
      "id",
      "name",
      "planType",
      "planUsage",
      "role",
      "status",
      "usage",
      "username",
    ]);
    expect(created).toMatchObject({
      username,
      name: "Ada",
      email: `${username.toLowerCase()}@example.com`,
      role: "admin",
      planType: "earlyAccess",
      status: "active",
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(created.id).not.toBe(1);
    expect(res.response.body).not.toContain("forged");
    const { res: login } = await signInAs(username, "Secr3t!pw");
    expect(login.status).toBe(200);
    const [settings] = await t.database.db.select().from(userSettings).where(eq(userSettings.userId, created.id));
    expect(settings).toBeDefined();
  });

  it("defaults to role user and the free plan; name and email are optional", async () => {
    const username = unique();
    const res = await admin.call(adminUsersApi.create, { body: { username, password: "Secr3t!pw", name: "", email: "" } });
    expect(res.status, res.response.body).toBe(201);
    expect(res.data).toMatchObject({ username, name: null, email: null, role: "user", planType: "free", status: "active" });
    const bare = await admin.call(adminUsersApi.create, { body: { username: unique(), password: "Secr3t!pw" } });
    expect(bare.status).toBe(201);
  });

  it("refuses each broken rule with the product's message", async () => {
    const ok = () => ({ username: unique(), name: "N", email: `${unique()}@example.com`, password: "Secr3t!pw", role: "user" as const });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...ok(), username: "ab" }, "username", "Username must be at least 3 characters"],
      [{ ...ok(), username: "  ab  " }, "username", "Username must be at least 3 characters"],
      [{ ...ok(), username: undefined }, "username", "Username is required"],
      [{ ...ok(), username: "x".repeat(51) }, "username", "Username cannot exceed 50 characters"],
      [{ ...ok(), password: "12345" }, "password", "Password must be at least 6 characters"],
      [{ ...ok(), password: undefined }, "password", "Password must be at least 6 characters"],
      [{ ...ok(), password: "" }, "password", "Password must be at least 6 characters"],
      // One password rule (decision 030): the registration's, in its words from 6 characters on.
      [{ ...ok(), password: "123456" }, "password", "Password must be at least 8 characters"],
      [{ ...ok(), password: "secret12" }, "password", "Password must contain at least one uppercase letter"],
      [{ ...ok(), email: "not-an-email" }, "email", "Please enter a valid email address"],
      [{ ...ok(), email: "a@b" }, "email", "Please enter a valid email address"],
      [{ ...ok(), role: "owner" }, "role", "Role must be user or admin"],
      [{ ...ok(), planType: "gold" }, "planType", "Plan must be free or earlyAccess"],
      [{ ...ok(), name: "x".repeat(101) }, "name", "Name cannot exceed 100 characters"],
      [{ ...ok(), name: "Nul\u0000Byte" }, "name", "Text cannot contain NUL characters or broken Unicode."],
      [{ ...ok(), username: "lone\uD800x" }, "username", "Text cannot contain NUL characters or broken Unicode."],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.call(adminUsersApi.create, { body: ok() }, { rawBody: body });
      expect({ field, status: res.status, message: res.error.message, error: res.error.errors?.[field] }).toEqual({
        field,
        status: 400,
        message,
        error: message,
      });
    }
    // Allowed edges: exactly 3 characters of username, exactly 8 of password.
    const edge = await admin.call(adminUsersApi.create, { body: { username: "abc", password: "Aa1!aaaa" } });
    expect(edge.status, edge.response.body).toBe(201);
  });

  it("answers 409 with the field error for a username or email already taken (any case)", async () => {
    const existing = await createUser();
    const sameName = await admin.call(adminUsersApi.create, {
      body: { username: existing.username.toUpperCase(), password: "Secr3t!pw" },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.error).toEqual({ message: "Username already exists", errors: { username: "Username already exists" } });
    const sameEmail = await admin.call(adminUsersApi.create, {
      body: { username: unique(), email: existing.email?.toUpperCase(), password: "Secr3t!pw" },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.error.errors).toEqual({ email: "An account with this email already exists" });
    // Two creations of one name at once: one account, one 409.
    const name = unique();
    const both = await Promise.all([0, 1].map(() => admin.call(adminUsersApi.create, { body: { username: name, password: "Secr3t!pw" } })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe("editing a user", () => {
  it("changes only what is sent; the username cannot change", async () => {
    const user = await createUser({ name: "Before", planType: "free" });
    const renamed = await edit(admin, user.id, { name: "After" });
    expect(renamed.status).toBe(200);
    expect(renamed.data).toMatchObject({ name: "After", email: user.email, role: "user", planType: "free", status: "active" });
    const cleared = await edit(admin, user.id, { email: "", name: null });
    expect(cleared.data).toMatchObject({ name: null, email: null, username: user.username });
    const renaming = await editRaw(admin, user.id, { username: "someone-else" });
    expect(renaming.status).toBe(400);
    expect(renaming.error.message).toBe("Username cannot be changed");
    expect((await edit(admin, user.id, {})).data.username).toBe(user.username);
  });

  it("refuses bad values with the product's messages, and unknown ids", async () => {
    const user = await createUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ password: "12345" }, "Password must be at least 6 characters"],
      [{ password: "abcdef" }, "Password must be at least 8 characters"],
      [{ password: "abcdefgh1!" }, "Password must contain at least one uppercase letter"],
      [{ email: "nope" }, "Please enter a valid email address"],
      [{ role: "root" }, "Role must be user or admin"],
      [{ planType: "gold" }, "Plan must be free or earlyAccess"],
      [{ status: "paused" }, "Status must be active or inactive"],
    ];
    for (const [body, message] of cases) {
      const res = await editRaw(admin, user.id, body);
      expect({ body, status: res.status, message: res.error.message }).toEqual({ body, status: 400, message });
    }
    for (const id of ["abc", "0", "-3", "1.5", "99999999999"]) {
      expect((await patch(admin, rawAddress(adminUsersApi.update, { id }), { name: "x" })).statusCode, id).toBe(400);
      expect((await del(admin, rawAddress(adminUsersApi.remove, { id }))).statusCode, id).toBe(400);
    }
    expect((await edit(admin, 2147483647, { name: "x" })).status).toBe(404);
    expect((await remove(admin, 2147483647)).status).toBe(404);
  });

  it("answers 409 for an email of another account, and accepts the user's own", async () => {
    const a = await createUser();
    const b = await createUser();
    const taken = await edit(admin, b.id, { email: a.email?.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.error.errors).toEqual({ email: "An account with this email already exists" });
    expect((await edit(admin, b.id, { email: b.email })).status).toBe(200);
  });

  it("keeps the password when it is blank; a new one ends the user's sessions and is logged", async () => {
    const user = await createUser();
    const { client } = await signInAs(user.username, user.password);
    expect((await edit(admin, user.id, { password: "", name: "Same Password" })).status).toBe(200);
    expect((await client.call(userApi.me, {})).status).toBe(200);
    expect((await signInAs(user.username, user.password)).res.status).toBe(200);

    expect((await edit(admin, user.id, { password: "Brand-n3w" })).status).toBe(200);
    expect((await client.call(userApi.me, {})).status).toBe(401);
    expect((await signInAs(user.username, user.password)).res.status).toBe(401);
    expect((await signInAs(user.username, "Brand-n3w")).res.status).toBe(200);
    expect(await logsOf(user.id, "password_reset")).toHaveLength(1);
  });

  it("changes the plan at once for the signed-in user and logs it", async () => {
    const user = await createUser();
    const { client } = await signInAs(user.username, user.password);
    expect((await client.ok(userApi.me, {})).planType).toBe("free");
    const res = await edit(admin, user.id, { planType: "earlyAccess" });
    expect(res.data.planType).toBe("earlyAccess");
    expect((await client.ok(userApi.me, {})).planType).toBe("earlyAccess");
    const [entry] = await logsOf(user.id, "plan_change");
    expect(entry).toMatchObject({ ipAddress: "127.0.0.1", userAgent: AGENT });
    // The same plan again is not a change.
    await edit(admin, user.id, { planType: "earlyAccess" });
    expect(await logsOf(user.id, "plan_change")).toHaveLength(1);
  });

  it("promotes and demotes at once", async () => {
    const user = await createUser();
    const { client } = await signInAs(user.username, user.password);
    expect((await client.call(adminUsersApi.list, {})).status).toBe(403);
    expect((await edit(admin, user.id, { role: "admin" })).data.role).toBe("admin");
    expect((await client.call(adminUsersApi.list, {})).status).toBe(200);
    expect((await edit(admin, user.id, { role: "user" })).data.role).toBe("user");
    expect((await client.call(adminUsersApi.list, {})).status).toBe(403);
  });
});

describe("account status", () => {
  it("disabling ends the sessions at once and refuses sign-in; enabling restores it; both are logged", async () => {
    const user = await createUser();
    const { client } = await signInAs(user.username, user.password);
    const second = await signInAs(user.email ?? "", user.password);
    expect((await client.call(userApi.me, {})).status).toBe(200);

    const disabled = await edit(admin, user.id, { status: "inactive" });
    expect(disabled.status).toBe(200);
    expect(disabled.data.status).toBe("inactive");
    const ended = await client.call(userApi.me, {});
    expect(ended.status).toBe(401);
    // Issue 29: the browser that held the session is told why, in the login's words.
    expect(ended.error).toEqual({ message: ACCOUNT_DISABLED_MESSAGE, reason: "account_disabled" });
    expect((await second.client.call(userApi.me, {})).status).toBe(401);
    // No session of the account is live; why they ended is kept apart (decision 061), until it is enabled again.
    const live = and(eq(sessions.userId, user.id), gt(sessions.idleExpiresAt, new Date()));
    const [{ left } = { left: -1 }] = await t.database.db.select({ left: count() }).from(sessions).where(live);
    expect(left).toBe(0);
    // A stranger's cookie, or none, is only told to sign in: the reason goes to the disabled account's sessions alone.
    expect((await callApp(t.app, userApi.me, {})).error).toEqual({ message: "You need to sign in to do that." });
    const stranger = await callApp(t.app, userApi.me, {}, { headers: { cookie: `sid=${"x".repeat(43)}` } });
    expect(stranger.error).toEqual({ message: "You need to sign in to do that." });

    const refused = await signInAs(user.username, user.password);
    expect(refused.res.status).toBe(403);
    expect(refused.res.error.message).toBe(ACCOUNT_DISABLED_MESSAGE);
    expect(refused.client.sessionCookie).toBeUndefined();
    // A wrong password still reads as a wrong password: the status is only told to whoever knows the password.
    const guessed = await signInAs(user.username, "wrong-password");
    expect(guessed.res.status).toBe(401);
    expect(guessed.res.error.message).toBe("Invalid username or password");

    const [entry] = await logsOf(user.id, "account_disabled");
    expect(entry).toMatchObject({ ipAddress: "127.0.0.1", userAgent: AGENT });

    const enabled = await edit(admin, user.id, { status: "active" });
    expect(enabled.data.status).toBe("active");
    // Enabled again: the old sessions are gone for good (none comes back), and their cookies are only told to sign in.
    const [{ rows } = { rows: -1 }] = await t.database.db.select({ rows: count() }).from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toBe(0);
    const stale = await client.call(userApi.me, {});
    expect(stale.status).toBe(401);
    expect(stale.error).toEqual({ message: "You need to sign in to do that." });
    const back = await signInAs(user.username, user.password);
    expect(back.res.status).toBe(200);
    expect((await back.client.call(userApi.me, {})).status).toBe(200);
    expect(await logsOf(user.id, "account_enabled")).toHaveLength(1);
  });

  it("a session left for an inactive account does not authenticate", async () => {
    const user = await createUser();
    await edit(admin, user.id, { status: "inactive" });
    const leftover = await t.app.ctx.sessions.create(user.id, { ip: "127.0.0.1", userAgent: null });
    const res = await callApp(t.app, userApi.me, {}, { headers: { cookie: `sid=${leftover.token}` } });
    expect(res.status).toBe(401);
  });
});

describe("search, filter and pages", () => {
  it("finds users by username, email or name, in any case, with %, _ and \\ taken literally", async () => {
    const tag = `zq${randomBytes(3).toString("hex")}`;
    const byName = await createUser({ username: unique("plain"), name: `Dr ${tag.toUpperCase()} Who`, email: "" });
    const byEmail = await createUser({ username: unique("mail"), email: `${tag}@example.org`, name: "" });
    const byUsername = await createUser({ username: `${tag}_under`, name: "" });
    const percent = await createUser({ username: `${tag}%pct`, name: "" });
    const slash = await createUser({ username: `${tag}\\back`, name: "" });
    const ids = (found: AdminUser[]) => found.map((u) => u.id).sort((x, y) => x - y);

    const all = (await list({ search: tag.toUpperCase() })).items;
    expect(ids(all)).toEqual(ids([byName, byEmail, byUsername, percent, slash]));
    expect(all.map((u) => u.id)).toEqual([...all.map((u) => u.id)].sort((x, y) => y - x));
    expect(ids((await list({ search: `${tag}_` })).items)).toEqual([byUsername.id]);
    expect(ids((await list({ search: `${tag}%` })).items)).toEqual([percent.id]);
    expect(ids((await list({ search: `${tag}\\` })).items)).toEqual([slash.id]);
    expect((await list({ search: "no-such-user-anywhere" })).items).toEqual([]);
    // Spaces around the text are ignored; an empty search lists everyone.
    expect(ids((await list({ search: `  ${tag}@EXAMPLE.org ` })).items)).toEqual([byEmail.id]);
    expect((await list({ search: "" })).items.length).toBeGreaterThan(5);
  });

  it("filters by status on the server", async () => {
    const tag = `st${randomBytes(3).toString("hex")}`;
    const on = await createUser({ name: tag });
    const off = await createUser({ name: tag });
    await edit(admin, off.id, { status: "inactive" });
    expect((await list({ search: tag, status: "inactive" })).items.map((u) => u.id)).toEqual([off.id]);
    expect((await list({ search: tag, status: "active" })).items.map((u) => u.id)).toEqual([on.id]);
    expect((await list({ search: tag, status: "" })).items.map((u) => u.id)).toEqual([off.id, on.id]);
    // A query the contract refuses, sent raw.
    expect((await admin.get(rawAddress(adminUsersApi.list, {}, "status=disabled"))).statusCode).toBe(400);
  });

  it("pages newest first with the cursor in x-next-cursor, without gaps or repeats", async () => {
    const tag = `pg${randomBytes(3).toString("hex")}`;
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await createUser({ name: `${tag} ${i}` })).id);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ search: tag, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((u) => u.id));
      cursor = page.next;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());
    // The default page is 25, the largest 100 (queries the contract refuses, sent raw).
    expect((await admin.get(rawAddress(adminUsersApi.list, {}, "limit=101"))).statusCode).toBe(400);
    expect((await admin.get(rawAddress(adminUsersApi.list, {}, "limit=0"))).statusCode).toBe(400);
    expect((await admin.get(rawAddress(adminUsersApi.list, {}, "cursor=abc"))).statusCode).toBe(400);
    const everyone = await list({ limit: 100 });
    expect(everyone.items.length).toBeLessThanOrEqual(100);
  });

  it("counts users for the summary", async () => {
    const res = await admin.call(adminUsersApi.summary, {});
    expect(res.status).toBe(200);
    const [row] = await t.database.db
      .select({
        total: sql<number>`count(*)::int`,
        inactive: sql<number>`count(*) filter (where status = 'inactive')::int`,
        admins: sql<number>`count(*) filter (where role = 'admin')::int`,
      })
      .from(users);
    expect(res.data).toEqual({
      total: row?.total,
      active: (row?.total ?? 0) - (row?.inactive ?? 0),
      inactive: row?.inactive,
      admins: row?.admins,
    });
  });
});

describe("token usage", () => {
  it("sums the last 30 days of each user's messages, in the list and in an edit's answer", async () => {
    const a = await createUser();
    const b = await createUser();
    const db = t.database.db;
    const [chatA] = await db.insert(chats).values({ userId: a.id, title: "A", aiPlatform: "openai" }).returning();
    const [chatB] = await db.insert(chats).values({ userId: b.id, title: "B", aiPlatform: "openai" }).returning();
    if (!chatA || !chatB) throw new Error("no chat");
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db.insert(messages).values([
      { chatId: chatA.id, userId: a.id, role: "assistant", content: "x", inputTokens: 100, outputTokens: 200, createdAt: daysAgo(1) },
      { chatId: chatA.id, userId: a.id, role: "assistant", content: "x", inputTokens: 50, outputTokens: 25, createdAt: daysAgo(29) },
      { chatId: chatA.id, userId: a.id, role: "assistant", content: "x", inputTokens: 7, outputTokens: null, createdAt: daysAgo(0) },
      { chatId: chatA.id, userId: a.id, role: "assistant", content: "old", inputTokens: 9999, outputTokens: 9999, createdAt: daysAgo(31) },
      { chatId: chatA.id, userId: a.id, role: "user", content: "no tokens", createdAt: daysAgo(0) },
      { chatId: chatB.id, userId: b.id, role: "assistant", content: "x", inputTokens: 1, outputTokens: 2, createdAt: daysAgo(2) },
    ]);
    const items = (await list({ limit: 100 })).items;
    expect(items.find((u) => u.id === a.id)?.usage).toEqual({ inputTokens: 157, outputTokens: 225 });
    expect(items.find((u) => u.id === b.id)?.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
    expect(items.find((u) => u.id === memberId)?.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect((await edit(admin, a.id, { name: "Reader" })).data.usage).toEqual({
      inputTokens: 157,
      outputTokens: 225,
    });
  });
});

describe("deleting a user", () => {
  it("removes the account and everything it owned in one go, ends its sessions and logs it", async () => {
    const doomed = await createUser();
    const keeper = await createUser();
    const { client } = await signInAs(doomed.username, doomed.password);
    const db = t.database.db;
    const own = async (userId: number) => {
      const [chat] = await db.insert(chats).values({ userId, title: "Chat", aiPlatform: "openai" }).returning();
      await db.insert(messages).values({ chatId: chat?.id as number, userId, role: "user", content: "hello" });
      await db.insert(personalities).values({ userId, name: "Tutor", instructions: "Be kind" });
      const [course] = await db.insert(courses).values({ userId, title: "Public course", status: "published", isPublic: true }).returning();
      const [module] = await db
        .insert(courseModules)
        .values({ courseId: course?.id as number, title: "M1", order: 1 })
        .returning();
      await db.insert(lessons).values({ moduleId: module?.id as number, courseId: course?.id as number, title: "L1", order: 1 });
      await db
        .insert(uploads)
        .values({ id: randomBytes(16).toString("hex"), userId, mimeType: "image/png", byteSize: 1, data: new Uint8Array([1]) });
    };
    await own(doomed.id);
    await own(keeper.id);
    const counts = async (userId: number) => {
      const n = async (table: typeof chats | typeof personalities | typeof courses | typeof uploads | typeof sessions | typeof messages) =>
        (await db.select({ n: count() }).from(table).where(eq(table.userId, userId)))[0]?.n;
      return {
        chats: await n(chats),
        messages: await n(messages),
        personalities: await n(personalities),
        courses: await n(courses),
        uploads: await n(uploads),
        sessions: await n(sessions),
      };
    };
    expect(await counts(doomed.id)).toEqual({ chats: 1, messages: 1, personalities: 1, courses: 1, uploads: 1, sessions: 1 });

    const res = await remove(admin, doomed.id);
    expect(res.status).toBe(204);
    expect(res.response.body).toBe("");
    expect(await counts(doomed.id)).toEqual({ chats: 0, messages: 0, personalities: 0, courses: 0, uploads: 0, sessions: 0 });
    expect((await db.select().from(users).where(eq(users.id, doomed.id))).length).toBe(0);
    expect((await client.call(userApi.me, {})).status).toBe(401);
    expect((await signInAs(doomed.username, doomed.password)).res.status).toBe(401);
    // Nobody else lost anything.
    expect(await counts(keeper.id)).toMatchObject({ chats: 1, messages: 1, personalities: 1, courses: 1, uploads: 1 });
    const publicList = await member.ok(coursesApi.list, { query: { scope: "public" } });
    expect(JSON.stringify(publicList.items)).not.toContain(`"userId":${doomed.id}`);

    // The row keeps the username the account had (as every row of the account now does) and names the admin.
    const entries = (await logsOf(null, "user_deleted")).filter((e) => e.deletedUsername === doomed.username);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ipAddress: "127.0.0.1", userAgent: AGENT, attemptedUsername: null, actorId: expect.any(Number) });
    expect((await remove(admin, doomed.id)).status).toBe(404);
  });
});

describe("fuzzed input", () => {
  it("never answers 5xx", async () => {
    const target = await createUser();
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      "",
      " ",
      "x".repeat(10_000),
      "\u0000",
      "\uDFFF",
      "😀".repeat(30),
      [],
      ["a"],
      {},
      { $ne: null },
      "admin",
      "inactive",
      "earlyAccess",
    ];
    const fields = ["username", "name", "email", "password", "role", "planType", "status", "id", "__proto__"];
    const statuses = new Set<number>();
    let n = 0;
    for (const field of fields) {
      for (const value of values) {
        n += 1;
        const body = { username: unique("fz"), password: "Secr3t!pw", [field]: value };
        const created = await admin.call(
          adminUsersApi.create,
          { body: { username: body.username, password: "Secr3t!pw" } },
          { rawBody: body },
        );
        const edited = await editRaw(admin, target.id, { [field]: value });
        statuses.add(created.status).add(edited.status);
        expect(created.status, `${field}=${JSON.stringify(value)}`).toBeLessThan(500);
        expect(edited.status, `${field}=${JSON.stringify(value)}`).toBeLessThan(500);
      }
    }
    for (const raw of ["not json", "[1,2]", '"text"', "null", "{"]) {
      const res = await admin.request({
        method: adminUsersApi.create.method,
        url: adminUsersApi.create.path,
        payload: raw,
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode, raw).toBeLessThan(500);
    }
    for (const q of [
      "search=%00",
      "search=%ED%A0%80",
      `search=${"%25".repeat(200)}`,
      "search=a&search=b",
      "status[]=x",
      "limit=1e3",
      "cursor=-1",
    ]) {
      expect((await admin.get(rawAddress(adminUsersApi.list, {}, q))).statusCode, q).toBeLessThan(500);
    }
    expect(n).toBeGreaterThan(100);
    expect([...statuses].every((s) => s < 500)).toBe(true);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.username).toBe(target.username);
  });
});

describe("protections (a database of its own, with exactly two admins)", () => {
  let p: TestApp;
  /** The two admins: each signed in with a session of their own. */
  const two: { id: number; username: string; password: string; client: CookieClient }[] = [];
  beforeAll(async () => {
    p = await buildTestApp();
    const a = await registerAndSignIn(p.app);
    two.push({ id: a.user.id, username: a.body.username, password: a.body.password, client: a.client });
    const username = unique("second");
    const made = await a.client.ok(adminUsersApi.create, { body: { username, password: "Secr3t!pw", role: "admin" } });
    const client = new CookieClient(p.app);
    expect((await client.call(authApi.login, { body: { username, password: "Secr3t!pw" } })).status).toBe(200);
    two.push({ id: made.id, username, password: "Secr3t!pw", client });
  });
  afterAll(async () => {
    await p?.close();
  });
  const activeAdmins = async () =>
    (
      await p.database.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, "admin"), eq(users.status, "active")))
    ).map((row) => row.id);
  const send = (client: CookieClient, method: "PATCH" | "DELETE", id: number, body: UpdateAdminUserBody = {}) =>
    method === "DELETE"
      ? client.call(adminUsersApi.remove, { params: { id } })
      : client.call(adminUsersApi.update, { params: { id }, body });
  /** The admin still standing makes the other one an active admin again and signs them back in. */
  async function restore() {
    const [standing] = await activeAdmins();
    const keeper = two.find((a) => a.id === standing);
    const other = two.find((a) => a.id !== standing);
    if (!keeper || !other) throw new Error("no admin left");
    expect((await send(keeper.client, "PATCH", other.id, { role: "admin", status: "active" })).status).toBe(200);
    expect((await other.client.call(authApi.login, { body: { username: other.username, password: other.password } })).status).toBe(200);
    expect(await activeAdmins()).toHaveLength(2);
  }
  /** Each admin removes the other at the same moment. */
  const race = (method: "PATCH" | "DELETE", payload?: UpdateAdminUserBody) =>
    Promise.all([0, 1].map((i) => send(two[i]?.client as CookieClient, method, two[1 - i]?.id as number, payload)));

  it("never lets an admin delete, disable or demote their own account", async () => {
    const [me] = two;
    if (!me) throw new Error("no admin");
    const cases: [Promise<{ status: number; error: { message: string } }>, string][] = [
      [send(me.client, "DELETE", me.id), "You cannot delete your own account"],
      [send(me.client, "PATCH", me.id, { status: "inactive" }), "You cannot disable your own account"],
      [send(me.client, "PATCH", me.id, { role: "user" }), "You cannot demote your own account"],
    ];
    for (const [pending, message] of cases) {
      const res = await pending;
      expect({ status: res.status, message: res.error.message }).toEqual({ status: 403, message });
    }
    // What is allowed on one's own account: name, plan, a no-op role and status.
    const own = await send(me.client, "PATCH", me.id, { name: "Chief", role: "admin", status: "active", planType: "earlyAccess" });
    expect(own.status).toBe(200);
    expect(await me.client.ok(userApi.me, {})).toMatchObject({ name: "Chief", role: "admin", planType: "earlyAccess" });
    expect(await activeAdmins()).toHaveLength(2);
  });

  /** Both removals start together; each HTTP request passes the admin check before either commits, or is refused by it. */
  async function httpRace(method: "PATCH" | "DELETE", payload: UpdateAdminUserBody, message: string) {
    const results = await race(method, payload);
    const codes = results.map((r) => r.status);
    expect(codes.filter((c) => c === 200 || c === 204)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 200 && r.status !== 204);
    // Refused by the lock (409), or, when it came second, by the session it no longer has (401) or its lost role (403).
    expect([401, 403, 409]).toContain(loser?.status);
    if (loser?.status === 409) expect(loser.error.message).toBe(message);
    expect(await activeAdmins()).toHaveLength(1);
  }

  /**
   * The same race straight at the service, with both admins already past the request's admin check: only
   * the transaction's row locks decide. Exactly one wins; the other is told it would remove the last admin.
   */
  async function serviceRace(removal: "demote" | "disable" | "delete") {
    const whos = await p.database.db
      .select(sessionUserColumns)
      .from(users)
      .where(
        inArray(
          users.id,
          two.map((a) => a.id),
        ),
      )
      .orderBy(users.id);
    const meta = { ip: "127.0.0.1", userAgent: AGENT };
    const deps = { db: p.database.db, sessions: p.app.ctx.sessions, meta };
    const act = (who: Who, userId: number) =>
      removal === "delete"
        ? deleteUserAsAdmin({ ...deps, who, userId, generations: p.app.ctx.generations, fileStore: p.app.ctx.fileStore })
        : updateUserAsAdmin({
            ...deps,
            who,
            userId,
            sessionId: null,
            input: removal === "demote" ? { role: "user" } : { status: "inactive" },
          });
    const [a, b] = whos as [Who, Who];
    const settled = await Promise.allSettled([act(a, b.id), act(b, a.id)]);
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = settled.find((r) => r.status === "rejected");
    expect(refused?.status === "rejected" ? (refused.reason as AppError) : null).toMatchObject({
      statusCode: 409,
      message: `You cannot ${removal} the last admin`,
    });
    expect(await activeAdmins()).toHaveLength(1);
  }

  it("two parallel demotions of the last two admins: exactly one succeeds (every round)", async () => {
    for (let round = 0; round < 4; round++) {
      await httpRace("PATCH", { role: "user" }, "You cannot demote the last admin");
      await restore();
      await serviceRace("demote");
      await restore();
    }
  });

  it("two parallel disables of the last two admins: exactly one succeeds (every round)", async () => {
    for (let round = 0; round < 3; round++) {
      await httpRace("PATCH", { status: "inactive" }, "You cannot disable the last admin");
      await restore();
      await serviceRace("disable");
      await restore();
    }
  });

  it("two parallel deletes of the last two admins: exactly one succeeds", async () => {
    await serviceRace("delete");
  });
});
