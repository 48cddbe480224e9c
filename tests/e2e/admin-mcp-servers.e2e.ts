// The admin's MCP Servers page (issue 34): add a real MCP server (the SDK's McpServer, tests/fakes/mcp-server.ts) with
// a secret header, try it before saving, see its tools, turn one off and mark one for approval, refresh (the choices
// stay), see a redirecting server refused in plain words, delete with a confirm; 1440 and 390 px, light and dark, axe.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminMcpServer } from "../../src/shared/contracts/mcp-servers.js";
import { MCP_FAKE_API_KEY, type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { AXE_RULES, audit } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: McpFake;
let redirecting: McpFake;
let admin: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startMcpFake({ apiKey: MCP_FAKE_API_KEY });
  redirecting = await startMcpFake({ redirectTo: fake.url });
  admin = await registerViaApi(h, uniqueAccount("admin"));
});
afterAll(async () => {
  await redirecting?.close();
  await fake?.close();
});

const card = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

async function openPage(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "MCP Servers" }).click();
  await page.waitForURL("**/admin/mcp-servers");
  await page.getByRole("heading", { name: "MCP Servers", level: 1 }).waitFor();
}

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function serversAsAdmin(): Promise<AdminMcpServer[]> {
  const client = await apiAs(h, admin);
  return (await client.get("/api/admin/mcp-servers")).json() as AdminMcpServer[];
}

describe("admin: MCP Servers", () => {
  it("adds a server, tries it, lists and switches its tools, refreshes, refuses a redirect and deletes", async () => {
    expect(admin.role).toBe("admin");
    const page = await h.newPage();
    await openPage(page);
    await page.getByText("No MCP servers yet. Add one to give the chat tools.").waitFor();

    await page.getByRole("button", { name: "Add Server" }).click();
    const dialog = page.getByRole("dialog", { name: "Add MCP Server" });
    await dialog.getByLabel("Name", { exact: true }).fill("Team tools");
    await dialog.getByLabel("URL", { exact: true }).fill(fake.url);
    // Without its header the server refuses: the test says so in plain words, nothing is saved.
    await dialog.getByRole("button", { name: "Test connection" }).click();
    await dialog.getByRole("status").getByText("The server refused the request (HTTP 401): check its headers").waitFor();
    await dialog.getByRole("button", { name: "Add header" }).click();
    await dialog.getByLabel("Header 1 name", { exact: true }).fill("x-api-key");
    const value = dialog.getByLabel("Header 1 value", { exact: true });
    await value.fill(MCP_FAKE_API_KEY);
    expect(await value.getAttribute("type")).toBe("password");
    await dialog.getByRole("button", { name: "Test connection" }).click();
    await dialog.getByRole("status").getByText("Connected: the server lists 5 tools: echo, add, slow, fails, big").waitFor();
    await dialog.getByRole("checkbox", { name: "Free" }).click();
    await dialog.getByRole("button", { name: "Add Server" }).click();
    await toastText(page, "MCP server added");
    await dialog.waitFor({ state: "detached" });

    const tools = card(page, "Team tools");
    await tools.getByText("Connected", { exact: true }).waitFor();
    await tools.getByTestId("mcp-last-result").getByText("Connected: the server lists 5 tools").waitFor();
    expect(await tools.innerText()).toContain("Plans: Early Access");
    expect(await tools.innerText()).toContain("Headers: x-api-key");
    expect(await page.content()).not.toContain(MCP_FAKE_API_KEY);
    for (const name of ["echo", "add", "slow", "fails", "big"]) await tools.getByText(name, { exact: true }).waitFor();
    await tools.getByText("(5 of 5 on)").waitFor();

    await tools.getByRole("switch", { name: "Enabled: big" }).click();
    await tools.getByText("(4 of 5 on)").waitFor();
    await tools.getByRole("switch", { name: "Needs approval: echo" }).click();
    // The switches show what the server saved (no optimistic change), so this waits for the answer.
    await tools.locator('[role="switch"][aria-label="Needs approval: echo"][aria-checked="true"]').waitFor();
    expect(await tools.getByRole("switch", { name: "Needs approval: big" }).isDisabled()).toBe(true);

    await tools.getByRole("button", { name: "Refresh tools" }).click();
    await toastText(page, "Tools refreshed");
    expect(await tools.getByRole("switch", { name: "Enabled: big" }).getAttribute("aria-checked")).toBe("false");
    expect(await tools.getByRole("switch", { name: "Needs approval: echo" }).getAttribute("aria-checked")).toBe("true");
    const [saved] = await serversAsAdmin();
    expect(saved?.tools.filter((t) => !t.enabled).map((t) => t.name)).toEqual(["big"]);
    expect(saved?.headerNames).toEqual(["x-api-key"]);

    // Editing keeps the stored header when its value is left empty.
    await tools.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Team tools" });
    expect(await edit.getByLabel("Header 1 value", { exact: true }).inputValue()).toBe("");
    expect(await edit.getByLabel("Header 1 value", { exact: true }).getAttribute("placeholder")).toBe("Stored (kept)");
    await edit.getByRole("button", { name: "Test connection" }).click();
    await edit.getByRole("status").getByText("Connected: the server lists 5 tools", { exact: false }).waitFor();
    await edit.getByLabel("Name", { exact: true }).fill("Team tools (edited)");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toastText(page, "MCP server saved");
    const edited = card(page, "Team tools (edited)");
    await edited.getByText("Connected", { exact: true }).waitFor();

    // A server that redirects: saved, but refused with plain words, and the server it points to never reached.
    const before = fake.requests.length;
    await page.getByRole("button", { name: "Add Server" }).click();
    const second = page.getByRole("dialog", { name: "Add MCP Server" });
    await second.getByLabel("Name", { exact: true }).fill("Moved server");
    await second.getByLabel("URL", { exact: true }).fill(redirecting.url);
    await second.getByRole("button", { name: "Add Server" }).click();
    await toastText(page, "MCP server added");
    const moved = card(page, "Moved server");
    await moved.getByText("Failed", { exact: true }).waitFor();
    await moved.getByTestId("mcp-last-result").getByText("The server answered with a redirect, which is not followed").waitFor();
    await moved.getByText("No tools yet: refresh to fetch the server's tools.").waitFor();
    expect(fake.requests.length).toBe(before);

    // A metadata address is refused under the URL field.
    await page.getByRole("button", { name: "Add Server" }).click();
    const third = page.getByRole("dialog", { name: "Add MCP Server" });
    await third.getByLabel("Name", { exact: true }).fill("Metadata");
    await third.getByLabel("URL", { exact: true }).fill("http://169.254.169.254/latest/meta-data/");
    await third.getByRole("button", { name: "Add Server" }).click();
    await third.getByText("The address 169.254.169.254 is a link-local or cloud metadata address, which MCP servers may not use").waitFor();
    await third.getByRole("button", { name: "Cancel" }).click();
    await third.waitFor({ state: "detached" });

    // Every view: 1440 and 390 px, light and dark; axe in each.
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const view = await h.newPage({ width, height: 900 });
      if (theme === "dark") await view.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await openPage(view);
      await card(view, "Team tools (edited)").getByText("(4 of 5 on)").waitFor();
      await card(view, "Moved server").getByText("Failed", { exact: true }).waitFor();
      const findings = await audit(view, [...AXE_RULES, "button-name", "label", "aria-toggle-field-name", "nested-interactive"]);
      expect(findings.map((f) => `${width} ${theme} ${f.rule} ${f.target}: ${f.summary}`)).toEqual([]);
      await view.screenshot({ path: screenshotPath(`admin-mcp-servers-${width}-${theme}.png`), fullPage: true });
      await card(view, "Team tools (edited)").getByRole("button", { name: "Edit" }).click();
      const open = view.getByRole("dialog", { name: "Edit Team tools (edited)" });
      await open.waitFor();
      expect((await audit(view)).map((f) => `dialog ${width} ${theme} ${f.rule} ${f.target}`)).toEqual([]);
      await view.screenshot({ path: screenshotPath(`admin-mcp-server-dialog-${width}-${theme}.png`) });
      await view.close();
    }

    await moved.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Moved server?" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toastText(page, "MCP server deleted");
    await moved.waitFor({ state: "detached" });
    expect((await serversAsAdmin()).map((s) => s.name)).toEqual(["Team tools (edited)"]);
  });

  it("shows the Platform Settings tool limits and checks them", async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/admin/settings");
    const steps = page.getByLabel("Tool steps per reply", { exact: true });
    await steps.waitFor();
    expect(await steps.inputValue()).toBe("8");
    expect(await page.getByLabel("Tool call timeout (seconds)", { exact: true }).inputValue()).toBe("30");
    await steps.fill("25");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Tool steps must be a whole number from 1 to 20").waitFor();
    await steps.fill("12");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await toastText(page, "Settings updated");
    const client = await apiAs(h, admin);
    expect((await client.get("/api/admin/platform-settings")).json()).toMatchObject({ toolMaxSteps: 12, toolCallTimeoutSeconds: 30 });
    await page.locator("form[aria-label='Platform settings']").getByText("Tools in chat").scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("admin-settings-tools-1440-light.png") });
  });
});
