// User Activity (docs/product.md, Admin back office): admins read the log newest first, filtered on the server by a
// search (username, email, name, IP, the name typed in a failed login), an exact action and a date range, page by
// page; and export the same filters as a streamed CSV whose cells cannot run as spreadsheet formulas.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { userActivityLogs, users } from "../../src/server/db/schema/index.js";
import { activityBatches } from "../../src/server/modules/activity/activity-service.js";
import { activityApi } from "../../src/shared/contracts/activity.js";
import { adminUsersApi, type UpdateAdminUserBody } from "../../src/shared/contracts/admin-users.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type CallInput, callApp, requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

type ListQuery = NonNullable<CallInput<typeof activityApi.list>["query"]>;
type ExportQuery = NonNullable<CallInput<typeof activityApi.exportCsv>["query"]>;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

let t: TestApp;
let admin: CookieClient;
let member: CookieClient;
let zoe: number;
let omar: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  member = (await registerAndSignIn(t.app)).client;
  const inserted = await t.database.db
    .insert(users)
    .values([
      { username: "zoe_carter", email: "zoe@northwind.example", name: "Zoë Carter", passwordHash: "x" },
      { username: "omar50", email: "omar@contoso.example", name: "Omar Haddad", passwordHash: "x" },
    ])
    .returning({ id: users.id });
  zoe = inserted[0]?.id as number;
  omar = inserted[1]?.id as number;
});
afterAll(async () => {
  await t?.close();
});

const startOfTodayUtc = () => {
  const now = Date.now();
  return now - (now % DAY);
};

type Seed = { userId?: number | null; action: string; at?: number; ip?: string | null; agent?: string | null; attempted?: string | null };
async function seed(rows: Seed[]) {
  await t.database.db.insert(userActivityLogs).values(
    rows.map((r) => ({
      userId: r.userId ?? null,
      action: r.action,
      createdAt: new Date(r.at ?? Date.now()),
      ipAddress: r.ip === undefined ? "10.0.0.1" : r.ip,
      userAgent: r.agent === undefined ? "Mozilla/5.0" : r.agent,
      attemptedUsername: r.attempted ?? null,
    })),
  );
}

const page = (query: ListQuery = {}, client = admin) => client.call(activityApi.list, { query });
async function logs(query: ListQuery = {}) {
  const res = await page(query);
  expect(res.status, res.response.body).toBe(200);
  return res.data.items;
}
async function ids(query: ListQuery = {}): Promise<number[]> {
  return (await logs(query)).map((l) => l.id);
}
async function allIds(): Promise<number[]> {
  return ids({ limit: 200 });
}
const exportCsv = (query: ExportQuery = {}) => admin.call(activityApi.exportCsv, { query });
const csvText = async (query: ExportQuery = {}) => (await exportCsv(query)).response.body;
/** A query written as it is sent, for the ones the contract's types do not allow (refused or malformed). */
const rawQuery = (endpoint: typeof activityApi.list | typeof activityApi.exportCsv, query: string) =>
  admin.request({ ...requestFor(endpoint, {}), url: `${endpoint.path}${query}` });

describe("who may call", () => {
  it("refuses the list and the export signed out (401) and for a non-admin (403)", async () => {
    const visitor = new CookieClient(t.app);
    const requests = [
      requestFor(activityApi.list, {}),
      requestFor(activityApi.list, { query: { search: "a" } }),
      requestFor(activityApi.exportCsv, {}),
      requestFor(activityApi.exportCsv, { query: { action: "login" } }),
    ];
    for (const request of requests) {
      expect((await visitor.request(request)).statusCode).toBe(401);
      const refused = await member.request(request);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain("zoe");
    }
  });
});

describe("what is recorded", () => {
  it("register, failed login (known and unknown account), login, password change and logout, with IP and user agent", async () => {
    await t.database.db.delete(userActivityLogs);
    const { client, body, user } = await registerAndSignIn(t.app);
    const headers = { "user-agent": "Activity-Test/1.0" };
    await callApp(t.app, authApi.login, { body: { username: "ghost-account", password: "Wrong!pass1" } }, { headers });
    await callApp(t.app, authApi.login, { body: { username: body.username, password: "Wrong!pass1" } }, { headers });
    await client.call(authApi.login, { body: { username: body.username, password: body.password } }, { headers });
    await client.call(
      userApi.changePassword,
      { body: { currentPassword: body.password, newPassword: "N3w!password", confirmPassword: "N3w!password" } },
      { headers },
    );
    await client.call(authApi.logout, {}, { headers });
    const res = await page();
    expect(res.status).toBe(200);
    const logs = res.data.items;
    expect(logs.map((l) => l.action)).toEqual(["logout", "password_change", "login", "failed_login", "failed_login", "register"]);
    // Newest first by id.
    expect(logs.map((l) => l.id)).toEqual([...logs.map((l) => l.id)].sort((a, b) => b - a));
    const ghost = logs[4];
    expect(ghost).toMatchObject({ user: null, attemptedUsername: "ghost-account", ipAddress: "127.0.0.1", userAgent: "Activity-Test/1.0" });
    expect(logs[0]).toMatchObject({
      user: { id: user.id, username: body.username, email: body.email, name: body.name },
      ipAddress: "127.0.0.1",
      userAgent: "Activity-Test/1.0",
    });
    // The keys as sent (the contract's parse would drop any other).
    expect(Object.keys(res.response.json()[0] ?? {}).sort()).toEqual([
      "action",
      "actor",
      "attemptedUsername",
      "createdAt",
      "deletedUsername",
      "id",
      "ipAddress",
      "user",
      "userAgent",
    ]);
    // The user's own acts name no actor.
    expect(logs.map((l) => l.actor)).toEqual([null, null, null, null, null, null]);
    expect(new Date(logs[0]?.createdAt ?? "").getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Nothing about the user's password or session leaves.
    expect(res.response.body).not.toMatch(/password_hash|passwordHash|sid=/);
  });
});

describe("an admin's acts and deleted accounts (issue 29)", () => {
  const headers = { "user-agent": "Admin-Browser/2.0" };
  const adminName = async () => (await admin.ok(userApi.me, {})).username;

  it("logs the users an admin creates and every edit, with the admin as the actor and the user as the subject", async () => {
    await t.database.db.delete(userActivityLogs);
    const me = (await admin.ok(userApi.me, {})).id;
    const created = await admin.call(
      adminUsersApi.create,
      { body: { username: "made_by_admin", email: "made@example.com", password: "Str0ng!pass", name: "Made" } },
      { headers },
    );
    expect(created.status, created.response.body).toBe(201);
    const id = created.data.id;
    const patch = (body: UpdateAdminUserBody) => admin.call(adminUsersApi.update, { params: { id }, body }, { headers });
    expect((await patch({ name: "Made Again" })).status).toBe(200);
    expect((await patch({ email: "again@example.com" })).status).toBe(200);
    expect((await patch({ role: "admin" })).status).toBe(200);
    expect((await patch({ planType: "earlyAccess" })).status).toBe(200);
    expect((await patch({ status: "inactive" })).status).toBe(200);
    // Sending what is already there changes nothing, and logs nothing.
    expect((await patch({ name: "Made Again", role: "admin" })).status).toBe(200);

    const rows = await logs();
    expect(rows.map((l) => l.action)).toEqual([
      "account_disabled",
      "plan_change",
      "role_change",
      "profile_change",
      "profile_change",
      "user_created",
    ]);
    for (const log of rows) {
      expect(log).toMatchObject({
        user: { id, username: "made_by_admin" },
        actor: { system: false, id: me, username: await adminName() },
        ipAddress: "127.0.0.1",
        userAgent: "Admin-Browser/2.0",
        deletedUsername: null,
      });
    }
    // The CSV names the admin in its last column.
    const csv = (await csvText({ action: "user_created" })).replace(/^\uFEFF/, "").split("\r\n");
    expect(csv[1]).toMatch(
      new RegExp(`^made_by_admin,again@example\\.com,User Created,[^,]+,127\\.0\\.0\\.1,Admin-Browser/2\\.0,${await adminName()}$`),
    );
    // A refused create (a taken username) logs nothing.
    const taken = await admin.call(adminUsersApi.create, { body: { username: "made_by_admin", password: "Str0ng!pass" } });
    expect(taken.status).toBe(409);
    expect(await logs({ action: "user_created" })).toHaveLength(1);
  });

  it("reads a deleted account the same on every row, in the list and in the CSV", async () => {
    await t.database.db.delete(userActivityLogs);
    const { client, body, user } = await registerAndSignIn(t.app, { username: "uma_leaving" });
    await client.call(authApi.login, { body: { username: "uma_leaving", password: "Wrong!pass1" } });
    await client.call(authApi.logout, {});
    expect((await admin.call(adminUsersApi.update, { params: { id: user.id }, body: { planType: "earlyAccess" } })).status).toBe(200);
    expect((await admin.call(adminUsersApi.remove, { params: { id: user.id } }, { headers })).status).toBe(204);

    const rows = await logs();
    expect(rows.map((l) => l.action)).toEqual(["user_deleted", "plan_change", "logout", "failed_login", "register"]);
    for (const log of rows) expect(log).toMatchObject({ user: null, deletedUsername: body.username });
    expect(rows[0]).toMatchObject({ actor: { system: false, username: await adminName() }, userAgent: "Admin-Browser/2.0" });
    expect(rows[0]?.attemptedUsername).toBeNull();

    const csv = (await csvText())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .slice(1, -1);
    expect(csv).toHaveLength(5);
    for (const line of csv) expect(line.split(",")[0]).toBe("uma_leaving (deleted user)");
    expect(csv.join("\n")).not.toContain("no account");
  });

  it("names a deleted admin the same way on the rows they acted on", async () => {
    await t.database.db.delete(userActivityLogs);
    const second = await registerAndSignIn(t.app, { username: "second_admin" });
    expect((await admin.call(adminUsersApi.update, { params: { id: second.user.id }, body: { role: "admin" } })).status).toBe(200);
    expect((await second.client.call(adminUsersApi.update, { params: { id: zoe }, body: { name: "Zoë C." } })).status).toBe(200);
    expect((await admin.call(adminUsersApi.remove, { params: { id: second.user.id } })).status).toBe(204);
    const [row] = await logs({ action: "profile_change" });
    expect(row).toMatchObject({ user: { id: zoe }, actor: { system: false, id: null, username: "second_admin" } });
    const csv = (await csvText({ action: "profile_change" })).split("\r\n")[1];
    expect(csv?.endsWith(",second_admin (deleted user)")).toBe(true);
  });
});

describe("filters", () => {
  let rows: Record<string, number>;
  beforeEach(async () => {
    await t.database.db.delete(userActivityLogs);
    await seed([
      { userId: zoe, action: "login", ip: "192.168.10.20", agent: "Firefox" },
      { userId: omar, action: "login", ip: "10.1.2.3", agent: "Safari" },
      { userId: omar, action: "logout", ip: "10.1.2.3" },
      { userId: null, action: "failed_login", ip: "203.0.113.9", attempted: "Mallory_Admin" },
      { userId: zoe, action: "failed_login", ip: "198.51.100.7", attempted: "zoe_carter" },
      { userId: null, action: "failed_login", ip: "203.0.113.10", attempted: "50%_off" },
      { userId: zoe, action: "password_change", ip: null, agent: null },
      { userId: omar, action: "plan_change", ip: "2001:DB8::1" },
    ]);
    const all = (
      await t.database.db.execute(sql`select id, action, coalesce(attempted_username, user_id::text) as who from user_activity_logs`)
    ).rows as { id: number; action: string; who: string }[];
    rows = {};
    for (const r of all) rows[`${r.action}:${r.who}`] = r.id;
  });
  const id = (key: string) => rows[key] as number;
  const desc = (list: number[]) => [...list].sort((a, b) => b - a);

  it("search matches username, email, name and IP, anywhere and in any case", async () => {
    const zoeRows = desc([id(`login:${zoe}`), id("failed_login:zoe_carter"), id(`password_change:${zoe}`)]);
    const omarRows = desc([id(`login:${omar}`), id(`logout:${omar}`), id(`plan_change:${omar}`)]);
    expect(await ids({ search: "ZOE_CAR" })).toEqual(zoeRows);
    expect(await ids({ search: "northwind.EXAMPLE" })).toEqual(zoeRows);
    expect(await ids({ search: "zoë" })).toEqual(zoeRows);
    expect(await ids({ search: "haddad" })).toEqual(omarRows);
    expect(await ids({ search: "  omar  " })).toEqual(omarRows);
    expect(await ids({ search: "192.168.10" })).toEqual([id(`login:${zoe}`)]);
    expect(await ids({ search: "db8::" })).toEqual([id(`plan_change:${omar}`)]);
    expect(await ids({ search: "203.0.113" })).toEqual(desc([id("failed_login:Mallory_Admin"), id("failed_login:50%_off")]));
    expect(await ids({ search: "nobody-like-this" })).toEqual([]);
  });

  it("search finds a failed login of an unknown account by the name typed", async () => {
    expect(await ids({ search: "mallory" })).toEqual([id("failed_login:Mallory_Admin")]);
    const [row] = await logs({ search: "mallory" });
    expect(row).toMatchObject({ user: null, attemptedUsername: "Mallory_Admin", action: "failed_login" });
  });

  it("search takes %, _ and \\ literally", async () => {
    expect(await ids({ search: "50%_" })).toEqual([id("failed_login:50%_off")]);
    // "_" alone would match every character as a LIKE wildcard: literally, only names that contain one match.
    expect(await ids({ search: "_" })).toEqual(
      desc([
        id(`login:${zoe}`),
        id("failed_login:zoe_carter"),
        id(`password_change:${zoe}`),
        id("failed_login:Mallory_Admin"),
        id("failed_login:50%_off"),
      ]),
    );
    expect(await ids({ search: "%" })).toEqual([id("failed_login:50%_off")]);
    expect(await ids({ search: "\\" })).toEqual([]);
    expect(await ids({ search: "'; drop table users; --" })).toEqual([]);
  });

  it("action is an exact match; an unknown action is refused; empty means all", async () => {
    expect(await ids({ action: "login" })).toEqual(desc([id(`login:${zoe}`), id(`login:${omar}`)]));
    expect(await ids({ action: "failed_login" })).toHaveLength(3);
    expect(await ids({ action: "plan_change" })).toEqual([id(`plan_change:${omar}`)]);
    expect(await ids({ action: "account_disabled" })).toEqual([]);
    expect(await ids({ action: "" })).toHaveLength(8);
    for (const bad of ["log", "LOGIN", "login%25", "failed_login,login"]) {
      const res = await rawQuery(activityApi.list, `?action=${bad}`);
      expect([res.statusCode, res.json().message]).toEqual([400, "Unknown action"]);
    }
    // Search and action together.
    expect(await ids({ action: "failed_login", search: "zoe" })).toEqual([id("failed_login:zoe_carter")]);
    expect(await ids({ action: "login", search: "mallory" })).toEqual([]);
  });

  it("refuses other bad queries with a 400, never a 5xx", async () => {
    const bad = [
      "?limit=0",
      "?limit=201",
      "?limit=abc",
      "?cursor=abc",
      "?cursor=0",
      "?cursor=-5",
      "?cursor=99999999999",
      "?date=tomorrow",
      "?tz=841",
      "?tz=abc",
      `?search=${"x".repeat(101)}`,
    ];
    for (const q of bad) expect((await rawQuery(activityApi.list, q)).statusCode, q).toBe(400);
    for (const q of ["?search=%00", "?search=a%00b", "?search=%ED%A0%BD", "?search=%C0%AF", "?tz=-720&date=today"]) {
      expect((await rawQuery(activityApi.list, q)).statusCode, q).toBeLessThan(500);
      expect((await rawQuery(activityApi.exportCsv, q)).statusCode, q).toBeLessThan(500);
    }
  });
});

describe("date ranges", () => {
  it("today, yesterday, last 7 days and last 30 days, in UTC by default", async () => {
    await t.database.db.delete(userActivityLogs);
    const today = startOfTodayUtc();
    const at = {
      now: Date.now(),
      todayStart: today + 1000,
      yesterdayLate: today - 1000,
      yesterdayStart: today - DAY,
      twoDaysAgo: today - 2 * DAY + HOUR,
      sixDaysAgo: today - 6 * DAY + HOUR,
      sevenDaysAgo: today - 7 * DAY + HOUR,
      twentyNineDaysAgo: today - 29 * DAY + HOUR,
      thirtyDaysAgo: today - 30 * DAY + HOUR,
      lastYear: today - 365 * DAY,
    };
    for (const [name, when] of Object.entries(at)) await seed([{ userId: zoe, action: "login", at: when, agent: name }]);
    const agents = async (q: ListQuery) => (await logs({ ...q, limit: 200 })).map((l) => l.userAgent);
    expect(await agents({ date: "today" })).toEqual(["todayStart", "now"]);
    expect(await agents({ date: "yesterday" })).toEqual(["yesterdayStart", "yesterdayLate"]);
    expect(await agents({ date: "last7days" })).toEqual([
      "sixDaysAgo",
      "twoDaysAgo",
      "yesterdayStart",
      "yesterdayLate",
      "todayStart",
      "now",
    ]);
    expect(await agents({ date: "last30days" })).toEqual([
      "twentyNineDaysAgo",
      "sevenDaysAgo",
      "sixDaysAgo",
      "twoDaysAgo",
      "yesterdayStart",
      "yesterdayLate",
      "todayStart",
      "now",
    ]);
    expect(await agents({ date: "" })).toHaveLength(10);
    // Ids follow insertion here, not time: ordering is by id (newest row first).
  });

  it("counts days in the admin's time zone when tz is given", async () => {
    await t.database.db.delete(userActivityLogs);
    const tz = 10 * 60; // UTC+10
    const now = Date.now();
    const localMidnightUtc = now + tz * 60_000 - ((now + tz * 60_000) % DAY) - tz * 60_000;
    await seed([
      { userId: zoe, action: "login", at: localMidnightUtc + 1000, agent: "local-today" },
      { userId: zoe, action: "login", at: localMidnightUtc - 1000, agent: "local-yesterday" },
    ]);
    const agents = async (q: ListQuery) => (await logs(q)).map((l) => l.userAgent);
    expect(await agents({ date: "today", tz })).toEqual(["local-today"]);
    expect(await agents({ date: "yesterday", tz })).toEqual(["local-yesterday"]);
  });
});

describe("paging", () => {
  it("pages newest first by id with the next cursor in x-next-cursor, without gaps or repeats", async () => {
    await t.database.db.delete(userActivityLogs);
    await seed(Array.from({ length: 7 }, (_, i) => ({ userId: i % 2 ? zoe : omar, action: i % 3 ? "login" : "logout", agent: `row${i}` })));
    const expected = await allIds();
    expect(expected).toHaveLength(7);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await page({ limit: 3, cursor: cursor ?? undefined });
      expect(res.status).toBe(200);
      seen.push(...res.data.items.map((l) => l.id));
      cursor = res.data.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    // A full last page still says there is nothing more.
    const six = await page({ limit: 7 });
    expect(six.headers["x-next-cursor"]).toBeUndefined();
    // Paging keeps the filters.
    const logins = await ids({ action: "login", limit: 200 });
    const first = await page({ action: "login", limit: 2 });
    const next = first.data.nextCursor;
    expect(next).toBe(String(logins[1]));
    expect(await ids({ action: "login", limit: 200, cursor: next ?? undefined })).toEqual(logins.slice(2));
    // Default page size is 50.
    await seed(Array.from({ length: 60 }, () => ({ userId: zoe, action: "login" })));
    expect(await ids()).toHaveLength(50);
  });
});

const HEADER = "User,Email,Action,Date/Time,IP Address,User Agent,Performed By";

/** RFC 4180, as a spreadsheet reads it: quoted cells may hold quotes (doubled), commas and line breaks. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("CSV export", () => {
  const parse = (text: string) =>
    text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .slice(0, -1);

  it("streams the filtered rows as an attachment with the product's columns (and who did it)", async () => {
    await t.database.db.delete(userActivityLogs);
    await seed([
      { userId: zoe, action: "login", ip: "192.168.10.20", agent: "Firefox", at: Date.UTC(2025, 0, 2, 3, 4, 5) },
      { userId: null, action: "failed_login", ip: "203.0.113.9", agent: null, attempted: "Mallory" },
      { userId: omar, action: "password_change", ip: "10.1.2.3", agent: "Safari" },
    ]);
    const res = await exportCsv();
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="user-activity-${today}.csv"`);
    expect(res.response.body.startsWith("\uFEFF")).toBe(true);
    expect(parse(res.response.body)).toEqual([
      HEADER,
      expect.stringMatching(/^omar50,omar@contoso\.example,Password Change,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00,10\.1\.2\.3,Safari,$/),
      expect.stringMatching(/^Mallory \(no account\),,Failed Login Attempt,[^,]+,203\.0\.113\.9,,$/),
      "zoe_carter,zoe@northwind.example,Login,2025-01-02T03:04:05+00:00,192.168.10.20,Firefox,",
    ]);

    // The same filters as the list; times in the admin's zone when tz is given.
    const filtered = await csvText({ action: "login", search: "ZOE", tz: -300 });
    expect(parse(filtered)).toEqual([HEADER, "zoe_carter,zoe@northwind.example,Login,2025-01-01T22:04:05-05:00,192.168.10.20,Firefox,"]);
    expect(parse(await csvText({ search: "nobody" }))).toEqual([HEADER]);
    expect((await rawQuery(activityApi.exportCsv, "?action=nope")).statusCode).toBe(400);
  });

  it("neutralises formulas and escapes quotes, commas and line breaks (RFC 4180)", async () => {
    await t.database.db.delete(userActivityLogs);
    const [evil] = await t.database.db
      .insert(users)
      .values({ username: "=cmd|' /C calc'!A0", email: "+1@x.example", name: "n", passwordHash: "x" })
      .returning({ id: users.id });
    await seed([
      { userId: evil?.id, action: "login", ip: "-2+3", agent: '=HYPERLINK("http://evil.example","click")' },
      { userId: null, action: "failed_login", ip: "@SUM(1+1)", agent: "\tcmd", attempted: "@admin" },
      { userId: zoe, action: "login", ip: "1.2.3.4", agent: "\r=1+1" },
      { userId: zoe, action: "login", ip: "1.2.3.4", agent: 'Mozilla "quoted", with comma\nand newline' },
    ]);
    const body = (await csvText()).replace(/^\uFEFF/, "");
    expect(body).toContain(`,1.2.3.4,"Mozilla ""quoted"", with comma\nand newline",\r\n`);
    expect(body).toContain(`,1.2.3.4,"'\r=1+1",\r\n`);
    expect(body).toContain(`'@admin (no account),,Failed Login Attempt,`);
    expect(body).toContain(`,'@SUM(1+1),'\tcmd,\r\n`);
    expect(body).toContain(`'=cmd|' /C calc'!A0,'+1@x.example,Login,`);
    expect(body).toContain(`,'-2+3,"'=HYPERLINK(""http://evil.example"",""click"")",\r\n`);
    // A semicolon-separated spreadsheet must not see a second cell starting with "=" inside the user agent.
    await seed([{ userId: zoe, action: "login", ip: "5.6.7.8", agent: "Mozilla;=cmd|' /C calc'!A0" }]);
    const again = await csvText();
    expect(again).toContain(`,5.6.7.8,"Mozilla;=cmd|' /C calc'!A0",\r\n`);
    // Read back as a spreadsheet would: 5 rows of 7 cells, none starting with a formula character.
    const table = readCsv(body);
    expect(table).toHaveLength(5);
    expect(readCsv(again.replace(/^\uFEFF/, ""))).toHaveLength(6);
    for (const row of table) {
      expect(row).toHaveLength(7);
      for (const cell of row) expect(/^[=+\-@\t\r]/.test(cell), cell).toBe(false);
    }
    expect(table[1]?.[5]).toBe('Mozilla "quoted", with comma\nand newline');
  });

  it("answers HEAD with the headers only", async () => {
    // HEAD is not the contract's method: the request is the contract's, sent as HEAD.
    const head = { ...requestFor(activityApi.exportCsv, {}), method: "HEAD" } as const;
    const res = await admin.request(head);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.body).toBe("");
    expect((await new CookieClient(t.app).request(head)).statusCode).toBe(401);
  });

  it("streams many rows in batches, all of them, newest first", async () => {
    await t.database.db.delete(userActivityLogs);
    await t.database.db.execute(sql`
      insert into user_activity_logs (user_id, action, ip_address, user_agent, created_at)
      select ${zoe}::int, 'login', '10.0.' || (g % 250) || '.' || (g % 200), 'agent-' || g, now() - g * interval '1 second'
      from generate_series(1, 4500) g`);
    const lines = parse(await csvText());

    expect(lines).toHaveLength(4501);
    const agents = lines.slice(1).map((line) => Number(line.split(",").at(-2)?.replace("agent-", "")));
    expect(new Set(agents).size).toBe(4500);
    // Newest first by id: the rows were inserted in g order, so ids grow with g.
    expect(agents[0]).toBe(4500);
    expect(agents.at(-1)).toBe(1);

    // Batches are read only when the reader asks for them (the response stream pulls): never the whole log at once.
    let queries = 0;
    const counted = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "execute") return value;
        return (...args: unknown[]) => {
          queries += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const who = { id: 1 } as Parameters<typeof activityBatches>[0]["who"];
    const batches = activityBatches({ db: counted, who, filters: { tz: 0 }, batchSize: 1000 });
    const first = await batches.next();
    expect(first.value).toHaveLength(1000);
    expect(queries).toBe(1);
    let rowsRead = 1000;
    for await (const batch of batches) rowsRead += batch.length;
    expect(rowsRead).toBe(4500);
    expect(queries).toBe(5);
  });
});
