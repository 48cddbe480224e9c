import { describe, expect, it } from "vitest";
import { gettingStartedVideos } from "../../src/server/db/schema/index.js";
import { registerViaApi, signIn, startHarness } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();

describe("dashboard and navigation", () => {
  it("shows the admin links only to an admin", async () => {
    const admin = await registerViaApi(h); // first account of this database
    const user = await registerViaApi(h);
    expect(admin.role).toBe("admin");
    expect(user.role).toBe("user");

    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    await adminPage.getByRole("link", { name: /Admin Dashboard/ }).waitFor();
    await adminPage.getByRole("button", { name: "Account" }).click();
    await adminPage.getByRole("menuitem", { name: "Admin" }).waitFor();

    const userPage = await h.newPage();
    await signIn(userPage, user);
    await userPage.getByRole("heading", { name: "Quick Actions" }).waitFor();
    expect(await userPage.getByRole("link", { name: /Admin Dashboard/ }).count()).toBe(0);
    await userPage.getByRole("button", { name: "Account" }).click();
    await userPage.getByRole("menuitem", { name: "Settings" }).waitFor();
    expect(await userPage.getByRole("menuitem", { name: "Admin" }).count()).toBe(0);
    const menu = await userPage.getByRole("menu").innerText();
    expect(menu).toContain(user.name);
    expect(menu).toContain(user.email);
  });

  it("shows the hero, the six key features and the quick actions", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, account);
    expect(await page.getByRole("link", { name: "Start a Chat" }).getAttribute("href")).toBe("/chat");
    expect(
      await page
        .getByRole("link", { name: /Course AI Builder/ })
        .first()
        .getAttribute("href"),
    ).toBe("/courses");
    const features = page.locator("section", { has: page.getByRole("heading", { name: "Key Features" }) });
    expect(await features.getByRole("heading", { level: 3 }).count()).toBe(6);
    expect(await page.getByRole("link", { name: /Customize Settings/ }).getAttribute("href")).toBe("/settings");
    await page.getByText("No getting started videos available yet.").waitFor();
  });

  it("plays a getting-started video in a sandboxed dialog and clears it on close", async () => {
    await h.database.db.insert(gettingStartedVideos).values([
      {
        title: "Your first chat",
        subtitle: "Two minutes",
        description: "Pick a model and ask.",
        embedUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        order: 1,
      },
      { title: "Build a course", embedUrl: "https://player.vimeo.com/video/76979871", order: 2 },
    ]);
    const account = await registerViaApi(h);
    const page = await h.newPage();
    // The players are on the internet, which this machine cannot reach: answer them locally.
    await page.route(/youtube-nocookie|vimeo/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<p>player</p>" }));
    await signIn(page, account);
    await page.getByRole("button", { name: /Your first chat/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain("Pick a model and ask.");
    const frame = dialog.locator("iframe");
    expect(await frame.getAttribute("src")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(await frame.getAttribute("sandbox")).toContain("allow-scripts");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await h.database.db.delete(gettingStartedVideos);
  });

  it("keeps the theme across a reload, with the class on <html> before the app runs", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, account);
    expect(await page.evaluate(() => document.documentElement.className)).toContain("light");
    await page.getByRole("button", { name: "Toggle theme" }).click();
    await page.getByRole("menuitemradio", { name: /Dark/ }).click();
    expect(await page.evaluate(() => localStorage.getItem("ui-theme"))).toBe("dark");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    // Block the app bundle on reload (theme-init.js, a hashed asset too, let through): the dark class must come from it alone (no flash).
    await page.route(/\/assets\/(?!theme-init-).*\.js$/, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
    );
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.unroute(/\/assets\/(?!theme-init-).*\.js$/);
    await page.reload();
    await page.getByRole("heading", { name: "Key Features" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  });

  it("works at 375 px: the slide-in menu opens and navigates", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage({ width: 375, height: 812 });
    await signIn(page, account);
    await page.getByRole("heading", { name: "Key Features" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath("dashboard-375.png"), fullPage: true });
    await page.getByRole("button", { name: "Open menu" }).click();
    const sheet = page.getByRole("dialog");
    await sheet.getByRole("link", { name: /Course AI Builder/ }).waitFor();
    await sheet
      .getByRole("link", { name: /Dashboard/ })
      .first()
      .click();
    await sheet.waitFor({ state: "detached" });
  });
});
