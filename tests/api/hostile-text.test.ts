// NUL characters and lone UTF-16 surrogates, which PostgreSQL cannot store, answer 400 on every API route
// (never 500), wherever they sit in the params, the query or the body.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BAD_TEXT, findBrokenText } from "../../src/server/lib/text-guard.js";
import { tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let admin: CookieClient;
/** The admin's personal token: the OpenAI-compatible routes (`access: "token"`) take nothing else. */
let token: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  token = (await admin.ok(tokensApi.create, { body: { name: "hostile", expiresInDays: 1, scopes: ["chat", "models", "courses:read"] } }))
    .token;
});
afterAll(async () => {
  await t.close();
});

const fill = (url: string) => url.replace(/:[A-Za-z]+/g, "1");

describe("hostile text", () => {
  it("finds NUL and lone surrogates in keys and values at any depth, and lets real text through", () => {
    expect(findBrokenText({ a: [{ b: "ok" }, { c: "x\u0000y" }] })).toBe("a.1.c");
    expect(findBrokenText({ "k\ud800": 1 })).toBe("k\ud800");
    expect(findBrokenText({ t: "tail \udc00" })).toBe("t");
    expect(findBrokenText({ t: "emoji 😀, accents é, CJK 漢字" })).toBeNull();
    expect(findBrokenText("\u0000")).toBe("body");
  });

  it("answers 400 with a clear message on every route that takes a body, signed in as an admin", async () => {
    const writes = t.app.apiRoutes.filter((r) => ["POST", "PATCH", "PUT"].includes(r.method));
    expect(writes.length).toBeGreaterThan(30);
    for (const [i, value] of ["a\u0000b", "\ud800", "end\udfff"].entries()) {
      for (const route of writes) {
        const res = await admin.request({
          method: route.method as "POST",
          url: fill(route.url),
          payload: { title: value, name: value, content: value, email: value, nested: { deep: [value] } },
          ...(route.access === "token" ? { headers: { authorization: `Bearer ${token}` } } : {}),
        });
        expect(res.statusCode, `${route.method} ${route.url} (${i})`).toBe(400);
        // Stripe's webhook reads raw bytes (its signature is over them): refused before any text is read.
        if (route.url === "/api/stripe/webhook") continue;
        // The app's `{ message }`, or OpenAI's `{ error: { message } }` on `/v1` (decision 051).
        const body = res.json() as { message?: string; error?: { message: string } };
        expect(body.message ?? body.error?.message, `${route.method} ${route.url}`).toBe(BAD_TEXT);
      }
    }
  });

  it("refuses them in a query string too, and real text still works", async () => {
    const res = await admin.call(chatsApi.search, { query: { q: "\u0000" } });
    expect(res.response.raw.req.url).toBe("/api/chats/search?q=%00");
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(BAD_TEXT);
    const ok = await admin.call(chatsApi.create, { body: { title: "Café 😀 漢字" } });
    expect(ok.status).toBe(201);
    expect(ok.data.title).toBe("Café 😀 漢字");
  });
});
