// Who may read an uploaded image (issue 28, finding 7; decision 003): an upload follows what it belongs to.
// A course's cover is read as the course is (the owner, an admin, anyone signed in for a public published
// course); refused, it answers 404 like an id that exists nowhere, so a private course's cover is not told
// apart from nothing. Avatars stay readable by any signed-in user; nobody signed out reads any upload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

const STATES = [
  { name: "private draft", isPublic: false, status: "draft" },
  { name: "private published", isPublic: false, status: "published" },
  { name: "public draft", isPublic: true, status: "draft" },
  { name: "public published", isPublic: true, status: "published" },
] as const;

const NOTHING_THERE = { message: "File not found" };
const SIGN_IN = { message: "You need to sign in to do that." };
/** An upload id that fits the route and exists nowhere. */
const UNKNOWN = `/api/uploads/${"0".repeat(32)}`;

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let ownerId: number;
let other: CookieClient;
let anonymous: CookieClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  const ownerAccount = await registerAndSignIn(t.app);
  owner = ownerAccount.client;
  ownerId = ownerAccount.user.id;
  other = (await registerAndSignIn(t.app)).client;
  anonymous = new CookieClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function coveredCourse(state: { isPublic: boolean; status: string }) {
  const created = await owner.post("/api/courses", { title: "Covered", isPublic: state.isPublic, status: state.status });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const cover = await owner.request({
    method: "POST",
    url: `/api/courses/${id}/cover`,
    ...multipartFile("file", "c.png", "image/png", TINY_PNG),
  });
  expect(cover.statusCode).toBe(200);
  const url = cover.json().coverImage as string;
  expect(url).toMatch(/^\/api\/uploads\/[a-f0-9]{32}$/);
  return { id, url };
}

async function expectImage(client: CookieClient, url: string) {
  const res = await client.get(url);
  expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
  expect(res.headers["content-type"]).toBe("image/png");
  expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
}

describe("a course's cover image", () => {
  it.each(STATES)("$name: owner and admin read it; another user exactly when they may read the course", async (state) => {
    const course = await coveredCourse(state);
    await expectImage(owner, course.url);
    await expectImage(admin, course.url);

    const courseAnswer = await other.get(`/api/courses/${course.id}`);
    const coverAnswer = await other.get(course.url);
    const readable = state.isPublic && state.status === "published";
    // The cover is readable as the course is: both, or neither.
    expect(courseAnswer.statusCode).toBe(readable ? 200 : 403);
    if (readable) {
      await expectImage(other, course.url);
    } else {
      // Refused as an unknown id is: same status, same body, no image bytes.
      const unknown = await other.get(UNKNOWN);
      expect({ status: coverAnswer.statusCode, body: coverAnswer.json() }).toEqual({ status: 404, body: NOTHING_THERE });
      expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({ status: 404, body: NOTHING_THERE });
      expect(coverAnswer.headers["content-type"]).not.toBe("image/png");
    }
  });

  it.each(STATES)("$name: signed out, refused as the course itself is (401)", async (state) => {
    const course = await coveredCourse(state);
    const courseAnswer = await anonymous.get(`/api/courses/${course.id}`);
    const coverAnswer = await anonymous.get(course.url);
    expect({ status: courseAnswer.statusCode, body: courseAnswer.json() }).toEqual({ status: 401, body: SIGN_IN });
    expect({ status: coverAnswer.statusCode, body: coverAnswer.json() }).toEqual({ status: 401, body: SIGN_IN });
  });

  it("follows the course when it is made private again, and when the cover is replaced", async () => {
    const course = await coveredCourse({ isPublic: true, status: "published" });
    await expectImage(other, course.url);
    expect((await owner.patch(`/api/courses/${course.id}`, { isPublic: false })).statusCode).toBe(200);
    expect((await other.get(course.url)).statusCode).toBe(404);
    await expectImage(owner, course.url);
    // A new cover on the private course is as closed as the old one; the old one is gone for everyone.
    const replaced = await owner.request({
      method: "POST",
      url: `/api/courses/${course.id}/cover`,
      ...multipartFile("file", "d.png", "image/png", TINY_PNG),
    });
    const url = replaced.json().coverImage as string;
    expect(url).not.toBe(course.url);
    expect((await other.get(url)).statusCode).toBe(404);
    expect((await owner.get(course.url)).statusCode).toBe(404);
    await expectImage(owner, url);
    expect((await owner.patch(`/api/courses/${course.id}`, { isPublic: true, status: "published" })).statusCode).toBe(200);
    await expectImage(other, url);
  });
});

describe("an avatar", () => {
  it("is read by any signed-in user, as before, and by nobody signed out", async () => {
    const res = await owner.request({ method: "POST", url: "/api/user/avatar", ...multipartFile("file", "me.png", "image/png", TINY_PNG) });
    expect(res.statusCode).toBe(200);
    const url = res.json().avatarUrl as string;
    await expectImage(owner, url);
    await expectImage(other, url);
    await expectImage(admin, url);
    expect((await anonymous.get(url)).statusCode).toBe(401);
  });
});

describe("an upload that belongs to nothing", () => {
  it("is read only by its uploader and admins", async () => {
    const id = "f".repeat(32);
    await t.database.db.execute(
      `insert into uploads (id, user_id, mime_type, byte_size, data) values ('${id}', ${ownerId}, 'image/png', ${TINY_PNG.byteLength}, decode('${TINY_PNG.toString("hex")}', 'hex'))`,
    );
    const url = `/api/uploads/${id}`;
    await expectImage(owner, url);
    await expectImage(admin, url);
    const refused = await other.get(url);
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 404, body: NOTHING_THERE });
  });
});
