// Malformed multipart bodies on the two image uploads (avatar, course cover) answer a clear 4xx, never a 500
// (issue 14: 8 of the fuzz's 500s). A well-formed upload still works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coursesApi } from "../../src/shared/contracts/courses.js";
import { userApi } from "../../src/shared/contracts/user.js";
import type { CallOptions } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

let t: TestApp;
let user: CookieClient;
let courseId: number;
beforeAll(async () => {
  t = await buildTestApp();
  user = (await registerAndSignIn(t.app)).client;
  courseId = (await user.ok(coursesApi.create, { body: { title: "Covered" } })).id;
});
afterAll(() => t.close());

/** An upload to the avatar or the cover route, and the address of the image it stored. */
async function upload(target: "avatar" | "cover", options: CallOptions) {
  if (target === "avatar") {
    const res = await user.call(userApi.uploadAvatar, {}, options);
    return { res, imageUrl: () => res.data.avatarUrl };
  }
  const res = await user.call(coursesApi.uploadCover, { params: { id: courseId } }, options);
  return { res, imageUrl: () => res.data.coverImage };
}

const BOUNDARY = "----fuzzboundary7MA4YWxkTrZu0gW";
const CRLF = "\r\n";
const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;
const filePart = (field: string, bytes: Buffer | string, filename = "a.png") =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${field}"; filename="${filename}"${CRLF}Content-Type: image/png${CRLF}${CRLF}`,
    ),
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
    Buffer.from(CRLF),
  ]);
const fieldPart = (field: string, value: string) =>
  Buffer.from(`--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${field}"${CRLF}${CRLF}${value}${CRLF}`);
const end = Buffer.from(`--${BOUNDARY}--${CRLF}`);
const MALFORMED = /^The upload is incomplete or malformed\. Please choose the (image|photo) again\.$/;
const TOO_LARGE = /^The (image|photo) is larger than 2 MB\. Please choose a smaller one\.$/;
const CHOOSE = /^Choose (an image|a photo) to upload\.$/;

/** Each malformed body, with the status and message it must get (the message names what to do). */
const cases: { name: string; contentType: string; payload: Buffer | string; status: number; message: RegExp | null }[] = [
  {
    name: "truncated body (no closing boundary, file cut short)",
    contentType: multipartType,
    payload: Buffer.concat([filePart("file", TINY_PNG)]).subarray(0, 120),
    status: 400,
    message: MALFORMED,
  },
  {
    name: "wrong boundary",
    contentType: "multipart/form-data; boundary=not-the-one-used",
    payload: Buffer.concat([filePart("file", TINY_PNG), end]),
    status: 400,
    message: MALFORMED,
  },
  {
    name: "no boundary at all",
    contentType: "multipart/form-data",
    payload: Buffer.concat([filePart("file", TINY_PNG), end]),
    status: 400,
    message: MALFORMED,
  },
  { name: "no part at all", contentType: multipartType, payload: end, status: 400, message: CHOOSE },
  { name: "empty body", contentType: multipartType, payload: "", status: 400, message: CHOOSE },
  {
    name: "a field instead of a file",
    contentType: multipartType,
    payload: Buffer.concat([fieldPart("image", "not a file"), end]),
    status: 400,
    message: CHOOSE,
  },
  {
    name: "a part without a Content-Disposition header (skipped: no file)",
    contentType: multipartType,
    payload: Buffer.from(`--${BOUNDARY}${CRLF}this is not a header${CRLF}${CRLF}data${CRLF}--${BOUNDARY}--${CRLF}`),
    status: 400,
    message: CHOOSE,
  },
  {
    name: "garbage instead of parts",
    contentType: multipartType,
    payload: Buffer.from("\u0000\u0001garbage without any boundary"),
    status: 400,
    message: MALFORMED,
  },
  {
    name: "a file larger than 2 MB",
    contentType: multipartType,
    payload: Buffer.concat([filePart("file", Buffer.alloc(2 * 1024 * 1024 + 10, 1)), end]),
    status: 413,
    message: TOO_LARGE,
  },
  {
    name: "two files (the first is the upload, the rest is not read)",
    contentType: multipartType,
    payload: Buffer.concat([filePart("file", TINY_PNG), filePart("other", TINY_PNG), end]),
    status: 200,
    message: null,
  },
  {
    name: "many fields before the file",
    contentType: multipartType,
    payload: Buffer.concat([
      ...Array.from({ length: 50 }, (_, i) => fieldPart(`f${i}`, "x".repeat(20_000))),
      filePart("file", TINY_PNG),
      end,
    ]),
    status: 413,
    message: /^The upload has too many parts\. Send one (image|photo) and nothing else\.$/,
  },
  {
    name: "a body larger than the image may be (a 3 MB field before the file)",
    contentType: multipartType,
    payload: Buffer.concat([fieldPart("note", "x".repeat(3 * 1024 * 1024)), filePart("file", TINY_PNG), end]),
    status: 413,
    message: TOO_LARGE,
  },
  {
    name: "a field named __proto__ before the file (fields are not read)",
    contentType: multipartType,
    payload: Buffer.concat([fieldPart("__proto__", "x"), filePart("file", TINY_PNG), end]),
    status: 200,
    message: null,
  },
  {
    name: "JSON to the upload route",
    contentType: "application/json",
    payload: JSON.stringify({ image: "data" }),
    status: 415,
    message: /^Send the (image|photo) as multipart\/form-data\.$/,
  },
  {
    name: "text to the upload route",
    contentType: "text/plain",
    payload: "hello",
    status: 415,
    message: /^Send the (image|photo) as multipart\/form-data\.$/,
  },
];

describe("malformed multipart on the image uploads", () => {
  for (const target of ["avatar", "cover"] as const) {
    for (const c of cases) {
      it(`${target}: ${c.name} → ${c.status}`, async () => {
        // The malformed body is the test: sent as it is.
        const { res, imageUrl } = await upload(target, { rawBody: c.payload, headers: { "content-type": c.contentType } });
        expect(res.status, res.response.body).toBe(c.status);
        if (c.message) expect(res.error.message, res.response.body).toMatch(c.message);
        else expect(imageUrl()).toMatch(/^\/api\/uploads\//);
      });
    }
  }

  it("still takes a well-formed image, on both routes", async () => {
    const avatar = await upload("avatar", { multipart: multipartFile("file", "a.png", "image/png", TINY_PNG) });
    expect(avatar.res.status, avatar.res.response.body).toBe(200);
    expect(avatar.imageUrl()).toMatch(/^\/api\/uploads\//);
    const cover = await upload("cover", { multipart: multipartFile("image", "c.png", "image/png", TINY_PNG) });
    expect(cover.res.status, cover.res.response.body).toBe(200);
    expect(cover.imageUrl()).toMatch(/^\/api\/uploads\//);
  });

  // Only the three upload routes read multipart (lib/upload-scope.ts): elsewhere such a body is refused, never a 500.
  it("refuses a multipart body on a route that takes JSON, with 415, and changes nothing", async () => {
    const before = await user.ok(userApi.me, {});
    // A multipart body the contract does not allow there: sent as it is.
    const res = await user.call(
      userApi.updateProfile,
      { body: {} },
      { rawBody: Buffer.concat([fieldPart("name", "Renamed by multipart"), end]), headers: { "content-type": multipartType } },
    );
    expect(res.status, res.response.body).toBe(415);
    expect(res.error.message).toMatch(/unsupported media type/i);
    expect((await user.ok(userApi.me, {})).name).toBe(before.name);
  });
});
