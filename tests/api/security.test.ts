import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authApi } from "../../src/shared/contracts/auth.js";
import { errorBodySchema } from "../../src/shared/contracts/errors.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile, TINY_PNG } from "../helpers/multipart.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A public API read, for the headers every API answer carries. */
const paymentSettings = (app: TestApp = t, headers: Record<string, string> = {}) =>
  callApp(app.app, publicContentApi.paymentSettings, {}, { headers });
const avatar = (client: CookieClient, name: string, type: string, bytes: Uint8Array) =>
  client.call(userApi.uploadAvatar, {}, { multipart: multipartFile("file", name, type, bytes) });

describe("cross-site requests", () => {
  it("refuses a state-changing request from another origin", async () => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(userApi.updateProfile, { body: { name: "Evil Name" } }, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.error.message).toBe("Cross-site requests are not allowed.");
    const fetchSite = await client.call(authApi.logout, {}, { headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchSite.status).toBe(403);
    expect((await client.ok(userApi.me, {})).name).toBe("Test Person");
  });

  it("accepts the same origin", async () => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(
      userApi.updateProfile,
      { body: { name: "Good Name" } },
      { headers: { origin: "http://localhost:80", host: "localhost:80", "sec-fetch-site": "same-origin" } },
    );
    expect(res.status).toBe(200);
  });

  it("refuses a cross-origin registration", async () => {
    const res = await callApp(
      t.app,
      authApi.register,
      { body: { ...newAccount(), planType: "free" } },
      { headers: { origin: "https://evil.example" } },
    );
    expect(res.status).toBe(403);
  });
});

describe("bad input never crashes the server", () => {
  it("answers malformed JSON with 400 and a message", async () => {
    const res = await callApp(
      t.app,
      authApi.login,
      { body: { username: "", password: "" } },
      { rawBody: "{not json", headers: { "content-type": "application/json" } },
    );
    expect(res.status).toBe(400);
    expect(res.error.message).toBe("The request body is not valid JSON.");
  });

  it("answers a 5 MB body with 413", async () => {
    const res = await callApp(
      t.app,
      authApi.register,
      { body: { ...newAccount(), planType: "free" } },
      { rawBody: JSON.stringify({ username: "x".repeat(5 * 1024 * 1024) }), headers: { "content-type": "application/json" } },
    );
    expect(res.status).toBe(413);
    expect(res.error.message).toBe("The request is too large.");
  });

  it("answers wrong types with 400", async () => {
    const res = await callApp(
      t.app,
      authApi.register,
      { body: { ...newAccount(), planType: "free" } },
      { rawBody: { username: 42, name: [], email: {}, password: null } },
    );
    expect(res.status).toBe(400);
    expect(res.error.errors?.username).toBeTruthy();
  });

  it("answers absurd ids and unknown endpoints with 4xx JSON", async () => {
    const { client } = await registerAndSignIn(t.app);
    // The path is normalised to /etc/passwd: at most the web app's index page, never the file.
    const traversal = await client.get("/api/uploads/../../etc/passwd");
    expect(traversal.statusCode).toBeLessThan(500);
    expect(traversal.body).not.toContain("root:");
    const long = await client.call(userApi.upload, { params: { id: "f".repeat(500) } });
    expect([404, 414]).toContain(long.status);
    expect((await client.call(userApi.upload, { params: { id: "f".repeat(32) } })).status).toBe(404);
    const unknown = await client.get("/api/does-not-exist");
    expect(unknown.statusCode).toBe(404);
    expect(errorBodySchema.parse(unknown.json()).message).toMatch(/No such endpoint/);
  });

  it("sends security headers: the document's policy on pages, nothing-may-load on API answers", async () => {
    const page = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    for (const res of [page, (await paymentSettings()).response]) {
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
    }
    const api = await paymentSettings();
    expect(api.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    // A refusal answered before any route (the cross-site check) carries the API set too.
    const crossSite = await callApp(t.app, authApi.logout, {}, { headers: { origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe("Permissions-Policy and HSTS", () => {
  it("turns off the browser features the app does not use, keeping payment for the page and Stripe.js", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    const policy = String(res.headers["permissions-policy"]);
    for (const off of ["camera=()", "microphone=()", "geolocation=()", "usb=()", "serial=()", "hid=()", "midi=()"]) {
      expect(policy).toContain(off);
    }
    expect(policy).toContain('payment=(self "https://js.stripe.com")');
    // The video embeds ask for these: they are left to their defaults.
    expect(policy).not.toMatch(/fullscreen|autoplay|picture-in-picture/);
    const page = await t.app.inject({ method: "GET", url: "/pricing" });
    expect(page.headers["permissions-policy"]).toBe(policy);
  });

  it("sends Strict-Transport-Security only on requests that arrived over https", async () => {
    expect((await paymentSettings()).headers["strict-transport-security"]).toBeUndefined();
    // Without TRUST_PROXY a client's X-Forwarded-Proto is not believed.
    const forged = await paymentSettings(t, { "x-forwarded-proto": "https" });
    expect(forged.headers["strict-transport-security"]).toBeUndefined();

    const behindProxy = await buildTestApp({ env: { TRUST_PROXY: "1" } });
    try {
      const https = await paymentSettings(behindProxy, { "x-forwarded-proto": "https" });
      expect(https.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      const http = await paymentSettings(behindProxy, { "x-forwarded-proto": "http" });
      expect(http.headers["strict-transport-security"]).toBeUndefined();
    } finally {
      await behindProxy.close();
    }
  });
});

describe("avatar upload", () => {
  it("stores a PNG, points avatarUrl at it and serves it to signed-in users only", async () => {
    const { client } = await registerAndSignIn(t.app);
    const res = await avatar(client, "me.bin", "application/octet-stream", TINY_PNG);
    expect(res.status).toBe(200);
    const avatarUrl = String(res.data.avatarUrl);
    expect(avatarUrl).toMatch(/^\/api\/uploads\/[a-f0-9]{32}$/);
    expect((await client.ok(userApi.me, {})).avatarUrl).toBe(avatarUrl);
    const image = await client.get(avatarUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: avatarUrl })).statusCode).toBe(401);
  });

  it("replaces the old photo and removes it on delete", async () => {
    const { client } = await registerAndSignIn(t.app);
    const first = String((await avatar(client, "a.png", "image/png", TINY_PNG)).data.avatarUrl);
    const second = String((await avatar(client, "b.png", "image/png", TINY_PNG)).data.avatarUrl);
    expect(second).not.toBe(first);
    expect((await client.get(first)).statusCode).toBe(404);
    const removed = await client.call(userApi.removeAvatar, {});
    expect(removed.data.avatarUrl).toBeNull();
    expect((await client.get(second)).statusCode).toBe(404);
  });

  it("refuses a text file renamed .png, by its content", async () => {
    const { client } = await registerAndSignIn(t.app);
    const fake = Buffer.from("<svg onload=alert(1)>this is not a png</svg>");
    const res = await avatar(client, "photo.png", "image/png", fake);
    expect(res.status).toBe(400);
    expect(res.error.message).toMatch(/not a PNG, JPEG or WebP/);
    expect((await client.ok(userApi.me, {})).avatarUrl).toBeNull();
  });

  it("refuses a file over 2 MB", async () => {
    const { client } = await registerAndSignIn(t.app);
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const res = await avatar(client, "big.png", "image/png", big);
    expect(res.status).toBe(413);
    expect(res.error.message).toMatch(/larger than 2 MB/);
  });

  it("needs a signed-in user", async () => {
    const res = await callApp(t.app, userApi.uploadAvatar, {}, { multipart: multipartFile("file", "a.png", "image/png", TINY_PNG) });
    expect(res.status).toBe(401);
  });
});
