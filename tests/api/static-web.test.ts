import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authApi } from "../../src/shared/contracts/auth.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { chatFoldersApi } from "../../src/shared/contracts/chat-folders.js";
import { SESSION_DATA_ID } from "../../src/shared/contracts/session-data.js";
import { sidebarSections } from "../../src/shared/contracts/sidebar-first-reads.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { endpointUrl } from "../../src/web/lib/api-client.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

// A stand-in for dist/web, so the test does not depend on a build having run.
const webDist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
mkdirSync(path.join(webDist, "assets"));
writeFileSync(path.join(webDist, "index.html"), '<!doctype html><title>app shell</title><body><div id="root"></div></body>');
writeFileSync(path.join(webDist, "assets", "main-abc123.js"), "console.log(1)");
writeFileSync(path.join(webDist, "theme-init.js"), "void 0");

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { WEB_DIST: webDist } });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe("the built web app", () => {
  it("answers every page path with the app shell and its security headers; an unknown one with a 404 and the shell", async () => {
    for (const [url, status] of [
      ["/", 200],
      ["/auth?tab=register", 200],
      ["/settings", 200],
      ["/chat/999999", 200],
      ["/courses/999999", 200],
      ["/no/such/page", 404],
      ["/dashboard/extra", 404],
      ["/chat/1/2", 404],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("app shell");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(String(res.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
      expect(res.headers["x-frame-options"]).toBe("DENY");
    }
  });

  it("caches hashed assets for a year, not the rest", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/main-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const themeInit = await t.app.inject({ method: "GET", url: "/theme-init.js" });
    expect(themeInit.headers["cache-control"]).toBe("no-cache");
  });

  it("keeps unknown API paths and missing files as 404s, not the app shell", async () => {
    const api = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(api.statusCode).toBe(404);
    expect(api.json().message).toBe("No such endpoint: GET /api/nothing-here");
    expect((await t.app.inject({ method: "GET", url: "/assets/missing.js" })).statusCode).toBe(404);
  });
});

describe("the chat page's preload hints (issue 29)", () => {
  it("names the sidebar's first reads (not the session probe: it slowed the first render), the same addresses the web's queries read, for a live session only", async () => {
    const visitor = await t.app.inject({ method: "GET", url: "/chat" });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.headers.link).toBeUndefined();
    expect(visitor.headers.vary).toContain("Cookie");
    const forged = await t.app.inject({ method: "GET", url: "/chat", headers: { cookie: "sid=not-a-session" } });
    expect(forged.headers.link).toBeUndefined();

    const { client } = await registerAndSignIn(t.app);
    const cookie = `sid=${client.cookie("sid")}`;
    const expected = [
      endpointUrl(chatsApi.list, { query: sidebarSections.pinned }),
      endpointUrl(chatFoldersApi.list, {}),
      endpointUrl(chatsApi.list, { query: sidebarSections.unfiled }),
    ];
    expect(expected).toEqual(["/api/chats?limit=100&pinned=true", "/api/chat-folders", "/api/chats?limit=100&folderId=none&pinned=false"]);
    for (const url of ["/chat", "/chat/12"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers.link).toBe(expected.map((href) => `<${href}>; rel=preload; as=fetch; crossorigin=use-credentials`).join(", "));
      // Each hint is a read the session may make.
      for (const href of expected) expect((await t.app.inject({ method: "GET", url: href, headers: { cookie } })).statusCode).toBe(200);
    }
    // Other pages get none.
    expect((await t.app.inject({ method: "GET", url: "/settings", headers: { cookie } })).headers.link).toBeUndefined();
  });
});

/** The chat page's session block (decision 052), parsed as the web reads it; undefined when the page has none. */
function sessionBlock(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${SESSION_DATA_ID}">(.*?)</script>`, "s").exec(html);
  return match?.[1] === undefined ? undefined : JSON.parse(match[1]);
}

describe("the chat page's session block (decision 052)", () => {
  it("carries the session probe's answer for a live session only, on the chat pages only, and is never stored", async () => {
    const visitor = await t.app.inject({ method: "GET", url: "/chat" });
    expect(sessionBlock(visitor.body)).toBeUndefined();
    expect(visitor.headers["cache-control"]).toBe("no-cache");
    const forged = await t.app.inject({ method: "GET", url: "/chat", headers: { cookie: "sid=not-a-session" } });
    expect(forged.statusCode).toBe(200);
    expect(sessionBlock(forged.body)).toBeUndefined();

    const { client } = await registerAndSignIn(t.app);
    const cookie = `sid=${client.cookie("sid")}`;
    // The probe's answer as sent: the page's block must hold exactly that.
    const probe = (await callApp(t.app, userApi.session, {}, { headers: { cookie } })).response.json();
    expect(probe.user).not.toBeNull();
    for (const url of ["/chat", "/chat/12"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      // Exactly what the session probe answers (no column the contract does not name), and the page is the app shell.
      expect(sessionBlock(res.body)).toEqual(probe);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers.vary).toContain("Cookie");
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers["last-modified"]).toBeUndefined();
    }
    // Other pages carry none.
    for (const url of ["/settings", "/", "/courses"]) {
      expect(sessionBlock((await t.app.inject({ method: "GET", url, headers: { cookie } })).body)).toBeUndefined();
    }
    // Signed out: the same cookie gets the plain shell.
    expect((await client.call(authApi.logout, {})).status).toBeLessThan(300);
    const after = await t.app.inject({ method: "GET", url: "/chat", headers: { cookie } });
    expect(sessionBlock(after.body)).toBeUndefined();
    expect(after.headers.link).toBeUndefined();
  });

  it("keeps another user's session apart and a name that looks like markup inside the block", async () => {
    const first = await registerAndSignIn(t.app, { name: "</script><script>alert(1)</script><!--" });
    const second = await registerAndSignIn(t.app);
    const page = (client: typeof first.client) =>
      t.app.inject({ method: "GET", url: "/chat", headers: { cookie: `sid=${client.cookie("sid")}` } });
    const firstPage = await page(first.client);
    expect(firstPage.body).not.toContain("<script>alert(1)");
    expect(sessionBlock(firstPage.body)).toMatchObject({ user: { id: first.user.id, name: "</script><script>alert(1)</script><!--" } });
    expect(sessionBlock((await page(second.client)).body)).toMatchObject({ user: { id: second.user.id, username: second.body.username } });
  });
});
