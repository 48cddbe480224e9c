import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_DISABLED_MESSAGE } from "../../src/shared/contracts/admin-users.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;
let adminApi: CookieClient;
/** A word only the users made for the paging check carry. */
const CROWD = "Crowdmember";

beforeAll(async () => {
  // The first account on the empty database becomes the admin.
  admin = await registerViaApi(h, uniqueAccount("admin"));
  member = await registerViaApi(h, { ...uniqueAccount("member"), name: "Marie Curie" });
  adminApi = new CookieClient(h.app);
  expect((await adminApi.post("/api/login", { username: admin.username, password: admin.password })).statusCode).toBe(200);
  // More than one page of users (25), so the list offers Load more.
  for (let i = 0; i < 27; i++) {
    const res = await adminApi.post("/api/admin/users", {
      username: `crowd${i}x${Date.now().toString(36)}`,
      name: `${CROWD} ${i}`,
      password: "Secr3t!pw",
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await adminApi?.post("/api/logout");
});

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function openUsers(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("heading", { name: "User Management" }).waitFor();
}

async function choose(page: Page, scope: ReturnType<Page["getByRole"]>, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const row = (page: Page, username: string) => page.getByRole("row", { name: username, exact: true });

describe("admin: User Management", () => {
  it("creates a user, checking the form's rules, then edits its plan, role and status", async () => {
    const page = await h.newPage();
    await openUsers(page);
    await page.getByRole("button", { name: "Load more" }).waitFor();

    await page.getByRole("button", { name: "Add User" }).click();
    const dialog = page.getByRole("dialog", { name: "Add User" });
    await dialog.getByLabel("Username", { exact: true }).fill("ab");
    await dialog.getByLabel("Email", { exact: true }).fill("not-an-email");
    await dialog.getByLabel("Password", { exact: true }).fill("12345");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await dialog.getByText("Username must be at least 3 characters").waitFor();
    await dialog.getByText("Please enter a valid email address").waitFor();
    await dialog.getByText("Password must be at least 6 characters").waitFor();

    // A taken username: the server's 409 lands under the field, with the product's failure toast.
    await dialog.getByLabel("Username", { exact: true }).fill(member.username);
    await dialog.getByLabel("Email", { exact: true }).fill("");
    await dialog.getByLabel("Password", { exact: true }).fill("Secr3t!pw");
    await dialog.getByRole("button", { name: "Create User" }).click();
    expect(await toastText(page, "Error creating user")).toContain("Username already exists");
    await dialog.getByText("Username already exists").waitFor();

    const username = `grace${Date.now().toString(36)}`;
    await dialog.getByLabel("Username", { exact: true }).fill(username);
    await dialog.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await dialog.getByLabel("Email", { exact: true }).fill(`${username}@example.com`);
    await choose(page, dialog, "Plan", "Early Access");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await toastText(page, "User created");
    await dialog.waitFor({ state: "detached" });
    const created = row(page, username);
    await created.getByText("Grace Hopper").waitFor();
    await created.getByText("Early Access").waitFor();
    await created.getByText("Active", { exact: true }).waitFor();
    const joined = new Date().toLocaleDateString("en-US", { month: "long", year: "numeric" });
    await created.getByText(joined).waitFor();

    await created.getByRole("button", { name: `Edit ${username}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit User" });
    expect(await edit.getByLabel("Username", { exact: true }).isDisabled()).toBe(true);
    expect(await edit.getByLabel("Username", { exact: true }).inputValue()).toBe(username);
    await edit.getByText("Token usage, last 30 days").waitFor();
    await choose(page, edit, "Plan", "Free");
    await choose(page, edit, "Role", "Admin");
    await choose(page, edit, "Status", "Inactive");
    await edit.getByText(`Saving signs ${username} out everywhere at once`).waitFor();
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toastText(page, "User updated");
    await edit.waitFor({ state: "detached" });
    await created.getByText("Inactive", { exact: true }).waitFor();
    await created.getByText("Admin", { exact: true }).waitFor();
    await created.getByText("Free", { exact: true }).waitFor();
    // The admin's own account (the oldest, on the second page): no Delete, and role and status are locked in the form.
    await page.getByRole("button", { name: "Load more" }).click();
    await row(page, admin.username).getByText("(you)").waitFor();
    expect(
      await row(page, admin.username)
        .getByRole("button", { name: `Delete ${admin.username}` })
        .isDisabled(),
    ).toBe(true);
    await row(page, admin.username)
      .getByRole("button", { name: `Edit ${admin.username}` })
      .click();
    const self = page.getByRole("dialog", { name: "Edit User" });
    await self.getByText("You cannot demote your own account").waitFor();
    expect(await self.getByLabel("Role", { exact: true }).isDisabled()).toBe(true);
    expect(await self.getByLabel("Status", { exact: true }).isDisabled()).toBe(true);
    await self.getByRole("button", { name: "Cancel" }).click();

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-users-1440.png"), fullPage: true, animations: "disabled" });
  });

  it("searches (debounced, on the server), filters by status and loads more", async () => {
    const page = await h.newPage();
    const searches: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/admin/users") searches.push(url.search);
    });
    await openUsers(page);
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByText(/^Showing (2[6-9]|[3-9]\d) users( \(all\))?$/).waitFor();

    await page.getByLabel("Search users").pressSequentially("MARIE cur", { delay: 30 });
    await row(page, member.username).waitFor();
    await page.getByText("Showing 1 user").waitFor();
    expect(await page.getByRole("row").count()).toBe(2);
    // One request for the whole word typed, not one per key.
    expect(searches.filter((s) => s.includes("search=")).length).toBeLessThanOrEqual(2);

    await page.getByLabel("Search users").fill("nobody-has-this-name");
    await page.getByText("No users found.").waitFor();
    await page.getByRole("button", { name: "Clear search and filter" }).click();
    await row(page, admin.username).waitFor();
    expect(await page.getByLabel("Search users").inputValue()).toBe("");

    await page.getByLabel("Filter by status").click();
    await page.getByRole("option", { name: "Inactive", exact: true }).click();
    await page.getByText("Showing 1 user").waitFor();
    await page.getByRole("row").filter({ hasText: "Grace Hopper" }).waitFor();
    expect(searches.some((s) => s.includes("status=inactive"))).toBe(true);
    await page.getByLabel("Filter by status").click();
    await page.getByRole("option", { name: "Active", exact: true }).click();
    await page.getByRole("button", { name: "Load more" }).waitFor();
    expect(await page.getByRole("row").filter({ hasText: "Grace Hopper" }).count()).toBe(0);
  });

  it("a disabled user cannot sign in and is told why; enabled again, they can", async () => {
    const list = (await adminApi.get(`/api/admin/users?search=${member.username}`)).json() as { id: number }[];
    const id = list[0]?.id as number;
    expect((await adminApi.patch(`/api/admin/users/${id}`, { status: "inactive" })).statusCode).toBe(200);

    const page = await h.newPage({ width: 390, height: 844 });
    await page.goto("/login");
    await page.getByLabel("Username", { exact: true }).fill(member.username);
    await page.getByLabel("Password", { exact: true }).fill(member.password);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    expect(await toastText(page, "Login failed")).toContain(ACCOUNT_DISABLED_MESSAGE);
    expect(new URL(page.url()).pathname).toBe("/login");

    expect((await adminApi.patch(`/api/admin/users/${id}`, { status: "active" })).statusCode).toBe(200);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  });

  it("deletes a user after the product's confirmation", async () => {
    const username = `doomed${Date.now().toString(36)}`;
    expect((await adminApi.post("/api/admin/users", { username, name: "Doomed Person", password: "Secr3t!pw" })).statusCode).toBe(201);
    const page = await h.newPage();
    await openUsers(page);
    await row(page, username)
      .getByRole("button", { name: `Delete ${username}` })
      .click();
    const confirm = page.getByRole("dialog", { name: "Are you sure?" });
    await confirm
      .getByText(
        "This will permanently delete the user Doomed Person. This action cannot be undone. Their chats, personalities and courses, public courses included, are deleted too.",
      )
      .waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await row(page, username).waitFor();
    await row(page, username)
      .getByRole("button", { name: `Delete ${username}` })
      .click();
    await confirm.getByRole("button", { name: "Delete User" }).click();
    await toastText(page, "User deleted");
    await row(page, username).waitFor({ state: "detached" });
    expect((await adminApi.get(`/api/admin/users?search=${username}`)).json()).toEqual([]);
  });

  it("works at 390 px (cards) and in the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await openUsers(phone);
    await phone.getByRole("button", { name: "Load more" }).waitFor();
    expect(await phone.getByRole("table").count()).toBe(0);
    await phone.screenshot({ path: screenshotPath("admin-users-390.png"), animations: "disabled" });
    await phone.getByLabel("Search users").fill(member.username);
    const card = phone.getByRole("listitem", { name: member.username, exact: true });
    await card.getByText("Marie Curie").waitFor();
    // Nothing sticks out of the screen: not the page, not the card's buttons.
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const edge = await card.getByRole("button", { name: `Delete ${member.username}` }).boundingBox();
    expect((edge?.x ?? 999) + (edge?.width ?? 0)).toBeLessThanOrEqual(390);
    await card.getByRole("button", { name: `Edit ${member.username}` }).click();
    await phone.getByRole("dialog", { name: "Edit User" }).getByLabel("Plan", { exact: true }).waitFor();
    await phone.screenshot({ path: screenshotPath("admin-users-390-edit.png"), animations: "disabled" });

    const dark = await h.newPage({ width: 1440, height: 900 });
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openUsers(dark);
    await dark.getByLabel("Search users").fill("Marie");
    await row(dark, member.username).waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-users-dark-1440.png"), fullPage: true, animations: "disabled" });
    await row(dark, member.username)
      .getByRole("button", { name: `Edit ${member.username}` })
      .click();
    await dark.getByRole("dialog", { name: "Edit User" }).waitFor();
    await dark.screenshot({ path: screenshotPath("admin-users-dark-edit.png"), animations: "disabled" });
  });
});
