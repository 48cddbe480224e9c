import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/build-test-app.js";

// A stand-in for dist/web, so the test does not depend on a build having run.
const webDist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
mkdirSync(path.join(webDist, "assets"));
writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>app shell</title>");
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
