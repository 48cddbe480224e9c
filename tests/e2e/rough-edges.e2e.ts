// The rough edges a new user hit in the walk (issue 14): no empty chat stored by a visit, AI actions locked
// on the free plan, only usable default models, a first visit greeted as one, a turned-off platform named,
// no 401 in a signed-out page's console, and the AI Chat Settings page on a phone.
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { registerViaApi, signIn, apiAs as signInApi, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let adminApi: CookieClient;
const platformIds: Record<string, number> = {};

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  admin = await registerViaApi(h, uniqueAccount("admin")); // the first account: the admin
  adminApi = await apiAs(admin);
  const platforms = (await adminApi.get("/api/ai-platforms")).json() as { id: number; slug: string }[];
  for (const p of platforms) platformIds[p.slug] = p.id;
});
afterAll(async () => {
  await fake?.close();
});

const apiAs = (account: { username: string; password: string }) => signInApi(h, account);

/** Points a seeded platform at the stand-in (free-tier models, so free users chat too), active. */
async function setUp(slug: string, models: string[]) {
  const saved = await adminApi.patch(`/api/admin/ai-platforms/${platformIds[slug]}`, {
    apiKey: "sk-test-valid-key-123456",
    baseUrl: fake.url,
    status: "active",
    settings: { models, defaultModel: models[0], freeModels: models },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

async function setStatus(slug: string, status: "active" | "inactive") {
  expect((await adminApi.patch(`/api/admin/ai-platforms/${platformIds[slug]}`, { status })).statusCode).toBe(200);
}

const history = (page: Page) => page.getByRole("complementary", { name: "Chat history" });
const listedChats = async (client: CookieClient) => (await client.get("/api/chats")).json() as { id: number; title: string }[];

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe("rough edges", () => {
  it("signed out: no 401 in the console; the session probe answers 200 with no user", async () => {
    for (const width of [1440, 390]) {
      // The harness fails this test on any console 401 (none is expected here).
      const page = await h.newPage({ width, height: 900 });
      for (const path of ["/", "/pricing", "/login", "/auth?tab=register", "/checkout/early-access"]) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
      }
      await page.goto("/chat"); // a signed-in page: the guard sends a visitor to sign in, quietly
      await page.waitForURL((url) => url.pathname === "/login");
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => fetch("/api/session").then(async (r) => [r.status, await r.json()]))).toEqual([200, { user: null }]);
      await page.screenshot({ path: screenshotPath(`rough-signed-out-login-${width}.png`) });
    }
    // The product's call is unchanged: 401 when signed out.
    expect((await h.app.inject({ method: "GET", url: "/api/user" })).statusCode).toBe(401);
    const signedIn = await apiAs(admin);
    expect((await signedIn.get("/api/session")).json().user).toMatchObject({ username: admin.username, role: "admin" });
  });

  it("a 401 the page declares (a wrong password) does not fail the walk", async () => {
    const page = await h.newPage({ expectedStatuses: [401] });
    await page.goto("/login");
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password", { exact: true }).fill("Wrong!pass1");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Login failed" }).first().waitFor();
  });

  it("names a platform that is turned off, and who can turn it on (the admin gets the way); the picker shows names, not slugs", async () => {
    await setUp("openai", ["gpt-4o-mini"]);
    await setStatus("openai", "inactive");
    try {
      const member = await registerViaApi(h);
      const memberPage = await h.newPage();
      await signIn(memberPage, member);
      await memberPage.goto("/chat");
      // A member is not told "not set up" (a key exists): which platform is off, and that an administrator can turn it on.
      await memberPage.getByText("OpenAI is turned off by an administrator.").waitFor();
      await memberPage.getByText("Ask an administrator to turn it back on.").waitFor();
      expect(await memberPage.getByText("No AI platform is set up yet.").count()).toBe(0);
      expect(await memberPage.getByRole("link", { name: "Turn it on in AI Chat Settings" }).count()).toBe(0);
      await memberPage.screenshot({ path: screenshotPath("rough-platform-off-member-1440.png") });
      expect(await memberPage.getByRole("textbox", { name: "Message" }).isDisabled()).toBe(true);

      for (const width of [1440, 390]) {
        const adminPage = await h.newPage({ width, height: 900 });
        await signIn(adminPage, admin);
        await adminPage.goto("/chat");
        await adminPage.getByText("OpenAI is turned off by an administrator.").waitFor();
        const link = adminPage.getByRole("link", { name: "Turn it on in AI Chat Settings" });
        expect(await link.getAttribute("href")).toBe("/admin/ai-platforms");
        await adminPage.screenshot({ path: screenshotPath(`rough-platform-off-${width}.png`) });
      }
    } finally {
      await setStatus("openai", "active");
    }

    // A chat on a platform no longer offered names it (and its model) by name.
    const member = await registerViaApi(h);
    const api = await apiAs(member);
    const chat = (await api.post("/api/chats", { aiPlatform: "mistral" })).json() as { id: number };
    await api.post(`/api/chats/${chat.id}/messages`, { content: "An old chat" });
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto(`/chat/${chat.id}`);
    const picker = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => picker.innerText()).toContain("Mistral (unavailable)");
    expect(await picker.innerText()).not.toMatch(/^mistral/);
  });

  it("stores no chat on a visit: the first message creates it, in place, and only then is it listed", async () => {
    await setUp("openai", ["gpt-4o-mini"]);
    const member = await registerViaApi(h);
    const api = await apiAs(member);
    const page = await h.newPage();
    await signIn(page, member);
    for (let visit = 0; visit < 3; visit++) {
      await page.goto("/chat");
      await page.getByText("Hi Ada Lovelace!").waitFor();
    }
    await history(page).getByRole("button", { name: "New Chat" }).click();
    await page.getByText("Hi Ada Lovelace!").waitFor();
    expect(new URL(page.url()).pathname).toBe("/chat");
    // Pressed on /chat already, it still shows where to type: the cursor goes to the message box.
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await listedChats(api)).toEqual([]);
    const rows = await h.database.db.execute(sql`select count(*)::int as n from chats where user_id = ${member.id}`);
    expect(Number(rows.rows[0]?.n)).toBe(0);
    await page.screenshot({ path: screenshotPath("rough-new-chat-1440.png") });

    // The first message: the chat is created, the address becomes /chat/{id}, the reply streams on the same screen.
    await box.fill("#slow Hello there");
    await box.press("Enter");
    await page.waitForURL(/\/chat\/\d+$/);
    await page.locator('[data-message-role="user"]', { hasText: "Hello there" }).waitFor();
    await page.locator('[data-message-role="assistant"]').last().getByText("Slow reply:").waitFor();
    await page.getByRole("button", { name: "Send message" }).waitFor();
    expect(await page.locator('[data-message-role="user"]').count()).toBe(1);
    const id = Number(new URL(page.url()).pathname.split("/")[2]);
    await history(page)
      .getByRole("link", { name: /Hello there/ })
      .waitFor();
    expect((await listedChats(api)).map((c) => c.id)).toEqual([id]);

    // A chat created elsewhere and never used is not listed either.
    const empty = (await api.post("/api/chats", {})).json() as { id: number };
    expect((await listedChats(api)).map((c) => c.id)).not.toContain(empty.id);

    const phone = await h.newPage({ width: 390, height: 844 });
    await signIn(phone, member);
    await phone.goto("/chat");
    await phone.getByText("Hi Ada Lovelace!").waitFor();
    await noHorizontalScroll(phone);
    await phone.screenshot({ path: screenshotPath("rough-new-chat-390.png") });
  });

  it("shows AI course actions locked on the free plan, with the plan needed and the way to get it", async () => {
    await setUp("openai", ["gpt-4o-mini"]);
    const member = await registerViaApi(h);
    const api = await apiAs(member);
    const course = (await api.post("/api/courses", { title: "Free plan course" })).json() as { id: number };
    for (const width of [1440, 390]) {
      const page = await h.newPage({ width, height: 900 });
      await signIn(page, member);
      await page.goto(`/courses/${course.id}/edit`);
      await page.getByRole("tab", { name: /Modules/ }).click();
      const button = page.locator("[data-locked-ai]").first();
      await button.waitFor();
      expect(await button.innerText()).toMatch(/Generate with AI/);
      expect(await button.isDisabled()).toBe(true);
      // The locked button is described by the page's note: the plan it needs and the way to get it.
      const note = page.locator(`[id="${await button.getAttribute("aria-describedby")}"]`);
      await note.getByText("AI course generation needs the Early Access plan.", { exact: false }).waitFor();
      // Payments are not set up in this walk: the button says so (with them, it is the checkout link).
      await note.getByRole("button", { name: "Get Early Access" }).waitFor();
      await noHorizontalScroll(page);
      await page.screenshot({ path: screenshotPath(`rough-locked-ai-${width}.png`) });

      await page.goto("/courses");
      await page
        .getByRole("button", { name: /New Course|Create a Course/ })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Title").fill("Another course");
      expect(await dialog.getByRole("button", { name: "Generate with AI" }).isDisabled()).toBe(true);
      await dialog.getByRole("note").getByText("AI course generation needs the Early Access plan.", { exact: false }).waitFor();
      // The field's label sits right above its box, beside the locked action.
      const label = await dialog.getByText("Description", { exact: true }).boundingBox();
      const box = await dialog.getByRole("textbox", { name: "Description" }).boundingBox();
      expect(label && box && box.y - (label.y + label.height)).toBeLessThan(16);
      await page.screenshot({ path: screenshotPath(`rough-locked-new-course-${width}.png`) });
      expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    }

    // An Early Access user (the admin) gets the live button.
    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    const own = (await adminApi.post("/api/courses", { title: "Admin course" })).json() as { id: number };
    await adminPage.goto(`/courses/${own.id}/edit`);
    await adminPage.getByRole("tab", { name: /Modules/ }).click();
    const live = adminPage.getByRole("button", { name: /Generate with AI/ });
    await live.waitFor();
    expect(await live.isDisabled()).toBe(false);
    expect(await adminPage.locator("[data-locked-ai]").count()).toBe(0);
  });

  it("offers only usable default models, and says when the saved one stopped being usable", async () => {
    await setUp("openai", ["gpt-4o-mini"]);
    await setUp("mistral", ["mistral-small"]);
    const member = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "AI Preferences" }).click();
    await page.getByRole("combobox", { name: "Default Model" }).click();
    await page.getByRole("option", { name: "mistral-small" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Settings updated" }).first().waitFor();
    await page.getByRole("combobox", { name: "Default Model" }).click();
    expect(await page.getByText("Not set up yet").count()).toBe(0);
    expect(await page.getByRole("option", { name: "Deepseek" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    await setStatus("mistral", "inactive");
    try {
      for (const width of [1440, 390]) {
        const view = await h.newPage({ width, height: 900 });
        await signIn(view, member);
        await view.goto("/settings");
        await view.getByRole("tab", { name: "AI Preferences" }).click();
        await view.getByText("Your default model mistral-small (Mistral) is not available any more; new chats use gpt-4o-mini.").waitFor();
        await noHorizontalScroll(view);
        await view.screenshot({ path: screenshotPath(`rough-default-model-${width}.png`) });
      }
      // The server refuses it too (the form cannot offer it).
      const api = await apiAs(member);
      const refused = await api.patch("/api/user/settings", { defaultModel: "mistral/mistral-small" });
      expect(refused.statusCode).toBe(400);
    } finally {
      await setStatus("mistral", "active");
    }
    await page.reload();
    await page.getByRole("tab", { name: "AI Preferences" }).click();
    await page.getByRole("combobox", { name: "Default Model" }).waitFor();
    expect(await page.getByText("is not available any more").count()).toBe(0);
  });

  it("greets a first visit as one, and a returning user with Welcome back", async () => {
    await setUp("openai", ["gpt-4o-mini"]);
    const member = await registerViaApi(h);
    for (const width of [1440, 390]) {
      const page = await h.newPage({ width, height: 900 });
      await signIn(page, member);
      await page.goto("/dashboard");
      await page.getByRole("heading", { name: "Welcome, Ada Lovelace" }).waitFor();
      await page.getByText("Getting started:", { exact: false }).waitFor();
      expect(await page.getByText("Welcome back").count()).toBe(0);
      await noHorizontalScroll(page);
      await page.screenshot({ path: screenshotPath(`rough-first-visit-${width}.png`) });
    }
    const api = await apiAs(member);
    const chat = (await api.post("/api/chats", {})).json() as { id: number };
    // An empty chat is not "having used it": still a first visit.
    let page = await h.newPage();
    await signIn(page, member);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Welcome, Ada Lovelace" }).waitFor();
    await api.post(`/api/chats/${chat.id}/messages`, { content: "hello" });
    page = await h.newPage();
    await signIn(page, member);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Welcome back, Ada Lovelace" }).waitFor();
    expect(await page.getByText("Getting started:", { exact: false }).count()).toBe(0);
  });

  it("lays out AI Chat Settings on a phone and a desktop, light and dark", async () => {
    await setUp("openai", ["gpt-4o-mini", "gpt-4o", "o3-mini-long-model-name"]);
    // A long base URL with no spaces: it must not widen the page nor wrap mid-token.
    const long = await adminApi.post("/api/admin/ai-platforms", {
      name: "Self-hosted Llama cluster in the Frankfurt data centre",
      slug: "self-hosted-llama-cluster-frankfurt",
      kind: "openai-compatible",
      baseUrl: `${fake.url}/a/very/long/path/to/the/openai/compatible/endpoint/v1`,
      settings: { models: ["llama-3.1-70b-instruct"], defaultModel: "llama-3.1-70b-instruct", temperature: 0.7, maxTokens: 1024 },
    });
    expect(long.statusCode, long.body).toBe(201);
    for (const theme of ["light", "dark"] as const) {
      for (const width of [390, 1440]) {
        const page = await h.newPage({ width, height: 900 });
        await page.addInitScript((value) => {
          if (window === window.top) localStorage.setItem("ui-theme", value);
        }, theme);
        await signIn(page, admin);
        await page.goto("/admin/ai-platforms");
        const card = page.getByRole("region", { name: "Self-hosted Llama cluster in the Frankfurt data centre" });
        await card.waitFor();
        await noHorizontalScroll(page);
        // Nothing cut: the name and the subtitle wrap (on spaces); the URL is cut with an ellipsis and kept whole in its title.
        const cut = await card.evaluate((element) =>
          [...element.querySelectorAll("h3, [data-slot=card-title], [data-slot=card-description], p")]
            .filter((node) => !(node as HTMLElement).closest("[title]"))
            .some((node) => node.scrollWidth > node.clientWidth + 1),
        );
        expect(cut).toBe(false);
        const url = card.getByTitle(`${fake.url}/a/very/long/path/to/the/openai/compatible/endpoint/v1`);
        expect(await url.evaluate((element) => getComputedStyle(element).textOverflow)).toBe("ellipsis");
        if (width === 390) {
          // Rows stack on a phone: the term above its value.
          const row = card.locator("div", { has: page.locator("dt", { hasText: "Default model" }) }).last();
          const term = await row.locator("dt").boundingBox();
          const value = await row.locator("dd").boundingBox();
          expect(value!.y).toBeGreaterThan(term!.y + term!.height - 1);
        }
        await page.screenshot({ path: screenshotPath(`rough-ai-platforms-${width}-${theme}.png`), fullPage: true });
        await card.screenshot({ path: screenshotPath(`rough-ai-platforms-${width}-${theme}-long-card.png`) });
      }
    }
  });
});
