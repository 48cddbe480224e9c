// Decision 066 (issue 42 item 8) in Chromium: a new chat's composer offers "Knowledge", so the first question is already
// answered from the chosen collections (the chat is created with them in its one create call: still two requests for
// the first message), and the library's "Ask this collection" opens a new chat with that collection chosen. An address
// naming a collection that is not the user's chooses nothing. Screenshots (and an axe audit) at 1440 and 390 px, light and dark.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chat } from "../../src/shared/contracts/chat.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { seedCollection, seedFile } from "../helpers/library-seed.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { audit } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { recordApi } from "./support/record-api.js";
import { shootViews } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
const MODEL = "gpt-4o-mini";
let member: Awaited<ReturnType<typeof registerViaApi>>;
let tides: number;
let foreign: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: [MODEL], freeModels: [MODEL], defaultModel: MODEL });
  member = await registerViaApi(h, uniqueAccount("asker"));
  const stranger = await registerViaApi(h, uniqueAccount("stranger"));
  const db = h.database.db;
  tides = await seedCollection(db, member.id, "Tide handbook");
  await seedFile(db, {
    userId: member.id,
    name: "tides.md",
    collectionId: tides,
    chunks: [{ content: "Spring tides come twice a month, at the new moon and the full moon.", page: null }],
  });
  await seedCollection(db, member.id, "Garden notes");
  foreign = await seedCollection(db, stranger.id, "Stranger's secrets");
  await seedFile(db, { userId: stranger.id, name: "secret.md", collectionId: foreign, chunks: [{ content: "Spring tides secret." }] });
});
afterAll(async () => {
  await fake?.close();
});

async function memberPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  await signIn(page, member);
  return page;
}

/** The screen at 1440 and 390 px, light and dark, each view audited: contrast, names that hold their visible text (the count badges), text alternatives. */
const shoot = (page: Page, name: string) =>
  shootViews(page, `new-chat-knowledge-${name}`, {
    inEach: async (view) => expect(await audit(page), `${name} at ${view.width} ${view.theme}`).toEqual([]),
  });

const chips = (page: Page) => page.getByRole("list", { name: "Collections this chat searches" });
const box = (page: Page) => page.getByRole("textbox", { name: "Message" });

/** Sends the first message and waits for the reply's citation of tides.md; answers the new chat's id. */
async function askAndSeeCitation(page: Page, question: string) {
  await box(page).fill(question);
  await box(page).press("Enter");
  await page.waitForURL(/\/chat\/\d+$/);
  const reply = page.locator('[data-message-role="assistant"]').last();
  await reply.getByRole("button", { name: /^Source 1: tides\.md/ }).waitFor();
  await reply.locator("[data-sources]").getByRole("button", { name: "tides.md" }).waitFor();
  return Number(new URL(page.url()).pathname.split("/").at(-1));
}

const chatOf = async (id: number) => (await (await apiAs(h, member)).get(`/api/chats/${id}`)).json() as Chat;

describe("knowledge in a new chat", () => {
  it("is chosen in the composer before the first message, which is answered from it and cites it", { timeout: 120_000 }, async () => {
    const page = await memberPage();
    await page.goto("/chat");
    await box(page).waitFor();
    await page.getByRole("button", { name: "Knowledge", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Knowledge" });
    await dialog.getByText("Every reply in this chat, the first one too, searches the collections you tick").waitFor();
    await dialog.getByRole("checkbox", { name: /^Tide handbook/ }).click();
    await shoot(page, "dialog");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    await chips(page).getByText("Tide handbook").waitFor();
    await page.getByRole("button", { name: "Knowledge, 1 collection" }).waitFor();
    // Removing and choosing again: the chip follows.
    await page.getByRole("button", { name: "Stop searching Tide handbook" }).click();
    await chips(page).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Knowledge", exact: true }).click();
    await dialog.getByRole("checkbox", { name: /^Tide handbook/ }).click();
    await dialog.getByRole("button", { name: "Done" }).click();
    await chips(page).getByText("Tide handbook").waitFor();
    await shoot(page, "composer");

    // The first message: the chat is created with the collection, then the reply streams (two requests, as before).
    const requests = recordApi(page);
    const chatId = await askAndSeeCitation(page, "When do spring tides come? [1]");
    await page.getByRole("button", { name: "Send message" }).waitFor();
    // A fixed wait: the list below must hold no request asked after the reply ended, and an absence has no event to
    // wait for (a refetch after a reply goes out within a frame of it).
    await page.waitForTimeout(1000);
    expect(requests).toEqual(["POST /api/chats", "POST /api/chats/:id/reply"]);
    expect((await chatOf(chatId)).collectionIds).toEqual([tides]);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Spring tides come twice a month");
    // The stored chat shows its collection in its header; the composer's choice is gone with the draft.
    await page.getByRole("button", { name: "1 collection" }).waitFor();
    expect(await page.getByRole("button", { name: /^Knowledge/ }).count()).toBe(0);
    await shoot(page, "cited");
    await page.close();
  });

  it("opens from the library's Ask this collection with that collection chosen", { timeout: 120_000 }, async () => {
    const page = await memberPage();
    await page.goto("/knowledge");
    await page
      .getByRole("navigation", { name: "Collections" })
      .getByRole("button", { name: /^Tide handbook/ })
      .click();
    const section = page.getByRole("region", { name: "Tide handbook" });
    await section.getByText("tides.md").waitFor();
    await shoot(page, "library");
    await section.getByRole("link", { name: "Ask this collection" }).click();
    await page.waitForURL(`**/chat?collection=${tides}`);
    await chips(page).getByText("Tide handbook").waitFor();
    expect(await chips(page).getByRole("listitem").count()).toBe(1);
    await page.getByRole("button", { name: "Knowledge, 1 collection" }).waitFor();
    await shoot(page, "asked");
    const chatId = await askAndSeeCitation(page, "How often do spring tides come? [1]");
    expect((await chatOf(chatId)).collectionIds).toEqual([tides]);

    // On a phone the collection is chosen with the select, and its menu asks it too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/knowledge");
    await page.getByLabel("Collection", { exact: true }).selectOption({ label: "Tide handbook (1)" });
    await page.getByRole("button", { name: "Actions for collection Tide handbook" }).click();
    await page.getByRole("menuitem", { name: "Ask this collection" }).click();
    await page.waitForURL(`**/chat?collection=${tides}`);
    await chips(page).getByText("Tide handbook").waitFor();
    // New chat leaves the address's choice behind.
    await page.goto("/chat");
    await box(page).waitFor();
    // A fixed wait: no chip must come, and an absence has no event to wait for (a chip follows the collections' read,
    // which answers in a few ms here).
    await page.waitForTimeout(500);
    expect(await chips(page).count()).toBe(0);
    await page.close();
  });

  it("chooses nothing for an address naming a collection that is not the user's, and still sends", { timeout: 120_000 }, async () => {
    const page = await memberPage();
    for (const asked of [String(foreign), "999999", "abc", "-1", `${foreign}&collection=${tides}`]) {
      const list = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/collections").catch(() => null);
      await page.goto(`/chat?collection=${asked}`);
      await box(page).waitFor();
      // Ids that parse are looked up in the user's list first; "abc" and "-1" ask for nothing at all.
      if (/^\d/.test(asked)) await list;
      // A fixed wait: for the refused ids no chip must come, and an absence has no event to wait for; the read it
      // would follow has answered above.
      await page.waitForTimeout(300);
      const expected = asked.endsWith(`collection=${tides}`) ? 1 : 0;
      expect(await chips(page).getByRole("listitem").count(), asked).toBe(expected);
      await page.getByRole("button", { name: expected ? "Knowledge, 1 collection" : "Knowledge", exact: true }).waitFor();
    }
    const list = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/collections");
    await page.goto(`/chat?collection=${foreign}`);
    await box(page).waitFor();
    await list;
    await box(page).fill("Tell me the spring tides secret");
    await box(page).press("Enter");
    await page.waitForURL(/\/chat\/\d+$/);
    const reply = page.locator('[data-message-role="assistant"]').last();
    await reply.getByText("Echo: Tell me the spring tides secret").waitFor();
    const chatId = Number(new URL(page.url()).pathname.split("/").at(-1));
    expect((await chatOf(chatId)).collectionIds).toEqual([]);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).not.toContain("secret.md");
    await page.close();
  });
});
