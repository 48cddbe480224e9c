// Issue 29, "knowing where you are": unknown addresses answer 404 with the not-found screen inside the site's own
// frame; every app page names its tab; a 401 on a signed-in page goes to sign-in saying why and returning after;
// the account button's name contains its text (axe label-content-name-mismatch); toasts cover no control.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { CookieClient } from "../helpers/build-test-app.js";
import { audit } from "./support/axe.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let adminApi: CookieClient;

beforeAll(async () => {
  // The first account on the empty database becomes the admin.
  admin = await registerViaApi(h, uniqueAccount("admin"));
  adminApi = new CookieClient(h.app);
  expect((await adminApi.post("/api/login", { username: admin.username, password: admin.password })).statusCode).toBe(200);
});

async function signedInPage(
  account: { username: string; password: string },
  options: { width?: number; expectedStatuses?: number[] } = {},
) {
  const page = await h.newPage({ width: options.width ?? 1440, height: 900, expectedStatuses: options.expectedStatuses });
  await page.goto("/login");
  await signIn(page, account);
  return page;
}

async function titleBecomes(page: Page, title: string) {
  await page.waitForFunction((wanted) => document.title === wanted, title);
  expect(await page.title()).toBe(title);
}

describe("unknown addresses", () => {
  it("answer 404 to a visitor, with the not-found screen between the public header and footer", async () => {
    for (const dark of [false, true]) {
      for (const width of [1440, 390]) {
        const page = await h.newPage({ width, height: 900, expectedStatuses: [404] });
        if (dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
        const response = await page.goto("/no/such/page");
        expect(response?.status()).toBe(404);
        await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
        await page.getByText("There is no page at this address. The link may be wrong, or the page may have moved.").waitFor();
        expect(await page.getByRole("banner").count()).toBe(1);
        expect(await page.getByRole("contentinfo").count()).toBe(1);
        await titleBecomes(page, "Page Not Found · Lumora");
        await page.screenshot({ path: screenshotPath(`not-found-visitor-${dark ? "dark-" : ""}${width}.png`), fullPage: true });
        await page.context().close();
      }
    }
  });

  it("answer 404 when signed in, with the screen inside the app shell; a missing chat or course is said in the shell too", async () => {
    const account = await registerViaApi(h, uniqueAccount("lost"));
    for (const dark of [false, true]) {
      for (const width of [1440, 390]) {
        const page = await h.newPage({ width, height: 900, expectedStatuses: [404] });
        if (dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
        await page.goto("/login");
        await signIn(page, account);
        const response = await page.goto("/dashboard/nothing");
        expect(response?.status()).toBe(404);
        await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
        await page.getByRole("button", { name: `Account menu for ${account.name}` }).waitFor();
        expect(await page.getByRole("contentinfo").count()).toBe(0);
        await page.screenshot({ path: screenshotPath(`not-found-signed-in-${dark ? "dark-" : ""}${width}.png`), fullPage: true });
        if (!dark && width === 1440) {
          await page.goto("/chat/999999");
          await page.getByText("Chat not found").first().waitFor();
          await page.getByRole("button", { name: `Account menu for ${account.name}` }).waitFor();
          await titleBecomes(page, "Chat not found · Lumora");
          await page.goto("/courses/999999");
          await page.getByText("Course not found").first().waitFor();
          await titleBecomes(page, "Course not found · Courses · Lumora");
        }
        await page.context().close();
      }
    }
  });
});

describe("tab titles", () => {
  it("name each app page, followed by the live product name", async () => {
    const made = await adminApi.post("/api/chats", { title: "Plans for Tuesday" });
    expect(made.statusCode).toBe(201);
    const page = await signedInPage(admin);
    await titleBecomes(page, "Dashboard · Lumora");
    await page.goto("/settings");
    await titleBecomes(page, "Settings · Lumora");
    await page.goto("/admin/users");
    await titleBecomes(page, "Users · Admin · Lumora");
    await page.goto(`/chat/${made.json().id}`);
    await titleBecomes(page, "Plans for Tuesday · Lumora");
    await page.goto("/courses");
    await titleBecomes(page, "Courses · Lumora");
    // The product name an admin sets is the one shown.
    expect((await adminApi.patch("/api/admin/platform-settings", { platformName: "Nimbus" })).statusCode).toBe(200);
    await page.goto("/settings");
    await titleBecomes(page, "Settings · Nimbus");
    expect((await adminApi.patch("/api/admin/platform-settings", { platformName: "Lumora" })).statusCode).toBe(200);
  });
});

describe("a session that ends under an open page", () => {
  it("an account disabled by an admin goes to sign-in, told why, and comes back after", async () => {
    const account = await registerViaApi(h, uniqueAccount("banned"));
    const page = await signedInPage(account, { expectedStatuses: [401, 403] });
    await page.getByRole("button", { name: `Account menu for ${account.name}` }).waitFor();
    expect((await adminApi.patch(`/api/admin/users/${account.id}`, { status: "inactive" })).statusCode).toBe(200);
    // Moves within the app (as a link does), so the next page's read is the one refused.
    await page.evaluate(() => {
      history.pushState(null, "", "/courses");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/courses");
    await page.getByText("This account has been disabled. Contact an administrator.").waitFor();
    await page.screenshot({ path: screenshotPath("signed-out-disabled-1440.png"), fullPage: true });
    // Enabled again: signing in returns to the page it was on.
    expect((await adminApi.patch(`/api/admin/users/${account.id}`, { status: "active" })).statusCode).toBe(200);
    await signIn(page, account);
    await page.waitForURL((url) => url.pathname === "/courses");
  });

  it("a page that notices by itself (no refused call: a reload) says why too, at 1440 and 390 px", async () => {
    // Decision 061: the session probe carries the reason, so a disabled or deleted account is told on every path.
    for (const [width, dark, ending] of [
      [1440, false, "disabled"],
      [390, true, "deleted"],
    ] as const) {
      const account = await registerViaApi(h, uniqueAccount(ending));
      const page = await signedInPage(account, { width, expectedStatuses: [401] });
      if (dark) await page.evaluate(() => localStorage.setItem("ui-theme", "dark"));
      await page.goto("/courses");
      await page.getByRole("button", { name: `Account menu for ${account.name}` }).waitFor();
      const ended =
        ending === "disabled"
          ? await adminApi.patch(`/api/admin/users/${account.id}`, { status: "inactive" })
          : await adminApi.delete(`/api/admin/users/${account.id}`);
      expect(ended.statusCode).toBeLessThan(300);
      await page.reload();
      await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/courses");
      await page
        .getByText(
          ending === "disabled"
            ? "This account has been disabled. Contact an administrator."
            : "This account has been deleted. Contact an administrator if you think this is a mistake.",
        )
        .waitFor();
      await page.screenshot({ path: screenshotPath(`signed-out-${ending}-reload-${dark ? "dark-" : ""}${width}.png`), fullPage: true });
      await page.context().close();
    }
  });

  it("a password changed on another device says so, and signing in returns to the page", async () => {
    const account = await registerViaApi(h, uniqueAccount("ended"));
    for (const [width, dark] of [
      [1440, false],
      [390, true],
    ] as const) {
      const page = await h.newPage({ width, height: 900, expectedStatuses: [401] });
      if (dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await page.goto("/login");
      await signIn(page, account);
      await page.goto("/settings");
      await page.getByRole("heading", { name: "Account Settings" }).waitFor();
      // Signed out on another device: this page's next request answers 401.
      const other = new CookieClient(h.app);
      expect((await other.post("/api/login", { username: account.username, password: account.password })).statusCode).toBe(200);
      const changed = await other.patch("/api/user/password", {
        currentPassword: account.password,
        newPassword: `${account.password}x`,
        confirmPassword: `${account.password}x`,
      });
      expect(changed.statusCode).toBe(200);
      await page.getByLabel("Name", { exact: true }).fill("Someone Else");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/settings");
      await page.getByText("Your password was changed, so you were signed out. Sign in with the new password.").waitFor();
      // The form's refused save is not toasted over the sign-in screen too (it says why already). A fixed wait: an
      // absence has no event to wait for; a toast would show within a frame of the refusal, already answered.
      await page.waitForTimeout(800);
      expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
      await page.screenshot({ path: screenshotPath(`signed-out-session-ended-${dark ? "dark-" : ""}${width}.png`), fullPage: true });
      await signIn(page, { username: account.username, password: `${account.password}x` });
      await page.waitForURL((url) => url.pathname === "/settings");
      expect(
        (
          await other.patch("/api/user/password", {
            currentPassword: `${account.password}x`,
            newPassword: account.password,
            confirmPassword: account.password,
          })
        ).statusCode,
      ).toBe(200);
      await page.context().close();
    }
  });
});

describe("the account button and toasts", () => {
  it("the signed-in pages pass axe's label-content-name-mismatch at 1440 and 390 px", async () => {
    const account = await registerViaApi(h, uniqueAccount("axe"));
    for (const width of [1440, 390]) {
      const page = await signedInPage(account, { width });
      for (const path of ["/", "/settings", "/courses"]) {
        await page.goto(path);
        await page.getByRole("button", { name: `Account menu for ${account.name}` }).waitFor();
        expect(await audit(page, ["label-content-name-mismatch"])).toEqual([]);
      }
      await page.context().close();
    }
  });

  it("a toast covers no control: top-right below the header on desktop, above the composer on a phone", async () => {
    const account = await registerViaApi(h, uniqueAccount("toast"));
    const restingToast = async (page: Page) => {
      const toast = page.locator("[data-sonner-toast]").first();
      await toast.waitFor();
      // Where it rests once it has slid in.
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
      // A fixed wait besides: Sonner measures and restacks its toasts from script after they mount, with no event to
      // wait for; without it the box was read mid-move under load.
      await page.waitForTimeout(500);
      const box = await toast.boundingBox();
      expect(box).not.toBeNull();
      // No link, button or field of the page lies under it.
      const covered = await page.evaluate(() => {
        const toastBox = document.querySelector("[data-sonner-toast]")?.getBoundingClientRect();
        if (!toastBox) return ["no toast"];
        return [...document.querySelectorAll("a, button, input, textarea, select, [role=button]")]
          .filter((element) => !element.closest("[data-sonner-toaster]"))
          .filter((element) => {
            const r = element.getBoundingClientRect();
            const visible = r.width > 0 && r.height > 0 && getComputedStyle(element).visibility !== "hidden";
            return visible && r.left < toastBox.right && r.right > toastBox.left && r.top < toastBox.bottom && r.bottom > toastBox.top;
          })
          .map((element) => element.outerHTML.slice(0, 80));
      });
      expect(covered).toEqual([]);
      return box ?? { x: 0, y: 0, width: 0, height: 0 };
    };

    const desktop = await signedInPage(account, { width: 1440, expectedStatuses: [400] });
    await desktop.goto("/settings");
    await desktop.getByLabel("Name", { exact: true }).fill("Toast 1440");
    await desktop.getByRole("button", { name: "Save", exact: true }).click();
    const onDesktop = await restingToast(desktop);
    const header = await desktop.getByRole("banner").first().boundingBox();
    expect(onDesktop.y).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 2);
    expect(onDesktop.y).toBeLessThan(200);
    expect(onDesktop.x + onDesktop.width).toBeGreaterThan(1300);
    await desktop.screenshot({ path: screenshotPath("toast-top-1440.png") });
    await desktop.context().close();

    for (const dark of [false, true]) {
      const phone = await signedInPage(account, { width: 390 });
      if (dark) await phone.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await phone.goto("/chat");
      const send = phone.getByRole("button", { name: "Send" });
      await send.waitFor();
      // A file the chat refuses raises a toast while the composer is on screen.
      await phone
        .locator('input[type="file"]')
        .setInputFiles({ name: "tool.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
      const onPhone = await restingToast(phone);
      const box = await phone.getByRole("textbox").last().boundingBox();
      const sendBox = await send.boundingBox();
      // Wholly above the message box and its Send button.
      expect(onPhone.y + onPhone.height).toBeLessThanOrEqual(Math.min(box?.y ?? 0, sendBox?.y ?? 0));
      await phone.screenshot({ path: screenshotPath(`toast-above-composer-390${dark ? "-dark" : ""}.png`) });
      await phone.context().close();
    }
  });
});
