// The back office's side menu: the product's entries as links, collapsed by default below 1024 px, expandable;
// /admin lands on Users and an unknown admin path shows Users; a non-admin sees Access Denied.
import { beforeAll, describe, expect, it } from "vitest";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("admin"));
  member = await registerViaApi(h, uniqueAccount("member"));
});

const ENTRIES = [
  "Users",
  "AI Chat Settings",
  "MCP Servers",
  "Global AI Prompts",
  "Platform Settings",
  "Email Settings",
  "Getting Started Videos",
  "User Activity",
];

describe("admin shell", () => {
  it("starts collapsed at 1000 px, expands, and every entry is a link to its page", async () => {
    const page = await h.newPage({ width: 1000, height: 800 });
    await signIn(page, admin);
    await page.goto("/admin");
    await page.waitForURL("**/admin/users");
    const nav = page.getByRole("navigation", { name: "Admin" });
    const expand = nav.getByRole("button", { name: "Expand menu" });
    await expand.waitFor();
    expect(await expand.getAttribute("aria-expanded")).toBe("false");
    await page.screenshot({ path: screenshotPath("admin-shell-1000-collapsed.png") });
    await expand.click();
    await nav.getByRole("button", { name: "Collapse menu" }).waitFor();
    for (const label of ENTRIES) expect(await nav.getByRole("link", { name: label }).count()).toBe(1);
    await nav.getByRole("link", { name: "User Activity" }).click();
    await page.waitForURL("**/admin/user-activity");
    expect(await nav.getByRole("link", { name: "User Activity" }).getAttribute("aria-current")).toBe("page");
    await page.goto("/admin/no-such-page");
    await page.getByRole("heading", { name: "User Management" }).waitFor();
  });

  it("opens over the page at 390 px, never widening it, and closes once a page is chosen", async () => {
    const page = await h.newPage({ width: 390, height: 844 });
    await signIn(page, admin);
    await page.goto("/admin/users");
    const nav = page.getByRole("navigation", { name: "Admin" });
    await nav.getByRole("button", { name: "Expand menu" }).click();
    await nav.getByRole("button", { name: "Collapse menu" }).waitFor();
    await page.getByRole("heading", { name: "User Management" }).waitFor();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await page.screenshot({ path: screenshotPath("admin-shell-390-open.png") });
    await nav.getByRole("link", { name: "User Activity" }).click();
    await page.waitForURL("**/admin/user-activity");
    await nav.getByRole("button", { name: "Expand menu" }).waitFor();
  });

  it("is open by default at 1440 px", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, admin);
    await page.goto("/admin/users");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("button", { name: "Collapse menu" }).waitFor();
  });

  it("shows Access Denied to a non-admin on every admin path", async () => {
    const page = await h.newPage();
    await signIn(page, member);
    for (const path of ["/admin", "/admin/users", "/admin/email-settings", "/admin/user-activity", "/admin/whatever"]) {
      await page.goto(path);
      await page.getByRole("heading", { name: "Access Denied" }).waitFor();
      expect(await page.getByRole("navigation", { name: "Admin" }).count()).toBe(0);
    }
  });
});
