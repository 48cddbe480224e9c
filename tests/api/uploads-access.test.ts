// Who may read an uploaded image (issue 28, finding 7; decision 003): an upload follows what it belongs to.
// A course's cover is read as the course is (the owner, an admin, anyone signed in for a public published
// course); refused, it answers 404 like an id that exists nowhere, so a private course's cover is not told
// apart from nothing. Avatars stay readable by any signed-in user; nobody signed out reads any upload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coursesApi } from "../../src/shared/contracts/courses.js";
import { userApi } from "../../src/shared/contracts/user.js";
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
const UNKNOWN = "0".repeat(32);

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

/** Reads an upload by the address an answer gave (`/api/uploads/{id}`). */
const read = (client: CookieClient, url: string) => client.call(userApi.upload, { params: { id: url.split("/").pop() ?? "" } });
const uploadCover = (id: number, name: string) =>
  owner.call(coursesApi.uploadCover, { params: { id } }, { multipart: multipartFile("file", name, "image/png", TINY_PNG) });

async function coveredCourse(state: { isPublic: boolean; status: "draft" | "published" }) {
  const created = await owner.call(coursesApi.create, { body: { title: "Covered", isPublic: state.isPublic, status: state.status } });
  expect(created.status).toBe(201);
  const id = created.data.id;
  const cover = await uploadCover(id, "c.png");
  expect(cover.status).toBe(200);
  const url = cover.data.coverImage ?? "";
  expect(url).toMatch(/^\/api\/uploads\/[a-f0-9]{32}$/);
  return { id, url };
}

async function expectImage(client: CookieClient, url: string) {
  const res = await read(client, url);
  expect({ url, status: res.status }).toEqual({ url, status: 200 });
  expect(res.headers["content-type"]).toBe("image/png");
  expect(res.response.rawPayload.equals(TINY_PNG)).toBe(true);
}

describe("a course's cover image", () => {
  it.each(STATES)("$name: owner and admin read it; another user exactly when they may read the course", async (state) => {
    const course = await coveredCourse(state);
    await expectImage(owner, course.url);
    await expectImage(admin, course.url);

    const courseAnswer = await other.call(coursesApi.get, { params: { id: course.id } });
    const coverAnswer = await read(other, course.url);
    const readable = state.isPublic && state.status === "published";
    // The cover is readable as the course is: both, or neither.
    expect(courseAnswer.status).toBe(readable ? 200 : 403);
    if (readable) {
      await expectImage(other, course.url);
    } else {
      // Refused as an unknown id is: same status, same body (as sent), no image bytes.
      const unknown = await other.call(userApi.upload, { params: { id: UNKNOWN } });
      expect({ status: coverAnswer.status, body: coverAnswer.response.json() }).toEqual({ status: 404, body: NOTHING_THERE });
      expect({ status: unknown.status, body: unknown.response.json() }).toEqual({ status: 404, body: NOTHING_THERE });
      expect(coverAnswer.headers["content-type"]).not.toBe("image/png");
    }
  });

  it.each(STATES)("$name: signed out, refused as the course itself is (401)", async (state) => {
    const course = await coveredCourse(state);
    const courseAnswer = await anonymous.call(coursesApi.get, { params: { id: course.id } });
    const coverAnswer = await read(anonymous, course.url);
    expect({ status: courseAnswer.status, body: courseAnswer.response.json() }).toEqual({ status: 401, body: SIGN_IN });
    expect({ status: coverAnswer.status, body: coverAnswer.response.json() }).toEqual({ status: 401, body: SIGN_IN });
  });

  it("follows the course when it is made private again, and when the cover is replaced", async () => {
    const course = await coveredCourse({ isPublic: true, status: "published" });
    await expectImage(other, course.url);
    const params = { id: course.id };
    expect((await owner.call(coursesApi.update, { params, body: { isPublic: false } })).status).toBe(200);
    expect((await read(other, course.url)).status).toBe(404);
    await expectImage(owner, course.url);
    // A new cover on the private course is as closed as the old one; the old one is gone for everyone.
    const url = (await uploadCover(course.id, "d.png")).data.coverImage ?? "";
    expect(url).not.toBe(course.url);
    expect((await read(other, url)).status).toBe(404);
    expect((await read(owner, course.url)).status).toBe(404);
    await expectImage(owner, url);
    expect((await owner.call(coursesApi.update, { params, body: { isPublic: true, status: "published" } })).status).toBe(200);
    await expectImage(other, url);
  });
});

describe("an avatar", () => {
  it("is read by any signed-in user, as before, and by nobody signed out", async () => {
    const res = await owner.call(userApi.uploadAvatar, {}, { multipart: multipartFile("file", "me.png", "image/png", TINY_PNG) });
    expect(res.status).toBe(200);
    const url = res.data.avatarUrl ?? "";
    await expectImage(owner, url);
    await expectImage(other, url);
    await expectImage(admin, url);
    expect((await read(anonymous, url)).status).toBe(401);
  });
});

describe("an upload that belongs to nothing", () => {
  it("is read only by its uploader and admins", async () => {
    const id = "f".repeat(32);
    await t.database.db.execute(
      `insert into uploads (id, user_id, mime_type, byte_size, data) values ('${id}', ${ownerId}, 'image/png', ${TINY_PNG.byteLength}, decode('${TINY_PNG.toString("hex")}', 'hex'))`,
    );
    // `read` takes the address's last part: the id alone names it.
    await expectImage(owner, id);
    await expectImage(admin, id);
    const refused = await read(other, id);
    expect({ status: refused.status, body: refused.response.json() }).toEqual({ status: 404, body: NOTHING_THERE });
  });
});
