import { describe, expect, it } from "vitest";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

// Issue 35: the API reference (Swagger UI from the app itself) draws the generated document for a signed-in user,
// with no outside request and no policy violation (a console error fails the test).

const h = startHarness();

describe("API reference", () => {
  it("a signed-in user reads the operations; a visitor signs in first and comes back to them", { timeout: 120_000 }, async () => {
    const user = await registerViaApi(h, uniqueAccount("dev"));
    for (const width of [390, 1440]) {
      // Decision 060: the visitor is sent to sign in (not shown a JSON refusal), then back to the reference.
      const visitor = await h.newPage({ width, height: 900 });
      await visitor.goto("/api/docs");
      expect(new URL(visitor.url()).pathname).toBe("/login");
      expect(new URL(visitor.url()).searchParams.get("next")).toBe("/api/docs");
      expect(await visitor.locator("body").innerText()).not.toContain('"message"');
      await visitor.screenshot({ path: screenshotPath(`api-reference-visitor-${width}.png`) });
      await signIn(visitor, user);
      await visitor.waitForURL((url) => url.pathname === "/api/docs");
      await visitor.locator(".swagger-ui .opblock").first().waitFor();
      await visitor.close();
    }

    const page = await h.newPage({ width: 1440, height: 900 });
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(h.baseUrl)) outside.push(request.url());
    });
    await signIn(page, user);
    await page.goto("/api/docs");
    await page.locator(".swagger-ui .opblock").first().waitFor();
    expect(await page.title()).toBe("API reference · Lumora");
    // The list draws what is in view: the filter brings the chats' operations, with their paths as the contracts write them.
    await page.locator(".operation-filter-input").fill("chats");
    await page.locator('.opblock-summary-path[data-path="/api/chats/{id}/messages"]').first().waitFor();
    await page.locator('.opblock-summary-path[data-path="/api/chats/{id}/messages"]').first().click();
    await page.getByText("Parameters", { exact: true }).first().waitFor();
    await page.screenshot({ path: screenshotPath("api-reference-1440.png") });
    expect(outside).toEqual([]);
    await page.close();
  });
});
