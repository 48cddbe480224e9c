import { describe, expect, it } from "vitest";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

// Issue 35: the API reference (Swagger UI from the app itself) draws the generated document for a signed-in user,
// with no outside request and no policy violation (a console error fails the test).

const h = startHarness();

describe("API reference", () => {
  it("a signed-in user reads the operations; a visitor is refused", { timeout: 120_000 }, async () => {
    const visitor = await h.newPage({ width: 1440, height: 900, expectedStatuses: [401] });
    const refused = await visitor.goto("/api/docs");
    expect(refused?.status()).toBe(401);
    await visitor.close();

    const user = await registerViaApi(h, uniqueAccount("dev"));
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
