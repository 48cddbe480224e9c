// The embeddings card of AI Chat Settings (issue 30): the admin picks the knowledge library's embedding platform and
// model, saves, and sees the re-index progress; a non-embedding platform is refused with the server's words.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";

const h = startHarness();
let fake: FakeProvider;
let admin: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  admin = await registerViaApi(h, uniqueAccount("admin"));
});
afterAll(async () => {
  await fake?.close();
});

async function openCard(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin/ai-platforms");
  await page.getByRole("heading", { name: "AI Chat Settings" }).waitFor();
  const card = page.getByRole("region", { name: "Embeddings for the knowledge library" });
  await card.waitFor();
  return card;
}

describe("admin: the embedding model", () => {
  it("is none at first, is saved with a platform and a model, and shows the re-index progress", async () => {
    const page = await h.newPage();
    const card = await openCard(page);
    const platform = card.getByLabel("Platform");
    const model = card.getByLabel("Model");
    expect(await platform.inputValue()).toBe("");
    expect(await model.isDisabled()).toBe(true);
    expect(await model.getAttribute("placeholder")).toBe("text-embedding-3-small");
    // PGlite offers pgvector: no note that it is missing.
    expect(await card.getByText("pgvector is not installed").count()).toBe(h.app.ctx.vectors.available ? 0 : 1);
    const options = await platform.locator("option").allInnerTexts();
    expect(options).toEqual(["None (full text only)", "OpenAI", "Mistral"]);

    await platform.selectOption("openai");
    await model.fill("text-embedding-3-small");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByText("No files to index yet.").waitFor();
    await page.reload();
    const again = page.getByRole("region", { name: "Embeddings for the knowledge library" });
    await again.getByText("No files to index yet.").waitFor();
    expect(await again.getByLabel("Platform").inputValue()).toBe("openai");
    expect(await again.getByLabel("Model").inputValue()).toBe("text-embedding-3-small");

    await again.getByLabel("Platform").selectOption("");
    await again.getByRole("button", { name: "Save" }).click();
    await again.getByText("No files to index yet.").waitFor({ state: "detached" });
  });
});
