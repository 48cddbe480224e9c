import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CitationDetail, ShownMessage } from "../../src/shared/contracts/chat.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { makePdf } from "../helpers/make-pdf.js";
import { multipartFile } from "../helpers/multipart.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { shootViews } from "./support/screenshot-path.js";

// Decision 058 on the screen (a 30-page manual, too large to go whole, so searched): a citation's side panel marks the whole passage the model read (the answering line far
// past the stored excerpt), inside the text around it, a neighbour from another page headed by its page, no sentence
// twice.
const h = startHarness();
let fake: FakeProvider;
const MODEL = "gpt-4o-mini";
const CHECK = "The flag -c, --check checks the syntax only.";
const OPTIONS = Array.from({ length: 60 }, (_, i) => `Option number ${i + 1} sets knob ${i + 1}.`);
const FILLER = "Cells divide and grow while the membrane keeps the inside apart from the outside world. ".repeat(20);
const MANUAL = Array.from({ length: 30 }, (_, i) =>
  i + 1 === 8
    ? `Usage: asn1Parser [options] file. Mandatory arguments to long options are mandatory for short options too. ${OPTIONS.slice(0, 12).join(" ")} ${CHECK} ${OPTIONS.slice(12).join(" ")}`
    : `Page ${i + 1}. ${FILLER}`,
);

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: [MODEL], freeModels: [MODEL], defaultModel: MODEL });
});
afterAll(async () => {
  await fake?.close();
});

describe("a citation's side panel", () => {
  it("marks the whole passage the model read, inside its neighbours", async () => {
    const account = await registerViaApi(h, uniqueAccount("cite"));
    const api = await apiAs(h, account);
    const upload = await api.request({
      method: "POST",
      url: "/api/files",
      ...multipartFile("file", "libtasn1.pdf", "application/pdf", await makePdf(MANUAL)),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const fileId = (upload.json() as { id: number }).id;
    expect((await settledFile(api, fileId)).status).toBe("ready");
    const chatId = ((await api.post("/api/chats", {})).json() as { id: number }).id;
    // The stand-in echoes the question, so the reply cites what it names.
    const reply = await api.post(`/api/chats/${chatId}/reply`, {
      content: "Which asn1Parser flag checks the syntax only? [1] [2] [3]",
      fileIds: [fileId],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const answer = ((await api.get(`/api/chats/${chatId}/messages`)).json() as ShownMessage[]).at(-1);
    let cited: CitationDetail | undefined;
    for (const c of answer?.citations ?? []) {
      const detail = (await api.get(`/api/chats/${chatId}/messages/${answer?.id}/citations/${c.n}`)).json() as CitationDetail;
      if (detail.passage.includes(CHECK)) cited = detail;
    }
    expect(cited?.page).toBe(8);
    expect(cited?.excerpt).not.toContain("--check");

    const page = await h.newPage();
    await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
    await signIn(page, account);
    await page.goto(`/chat/${chatId}`);
    const chip = page
      .locator('[data-message-role="assistant"]')
      .last()
      .getByRole("button", { name: `Source ${cited?.n}: libtasn1.pdf` });
    await chip.click();
    const panel = page.getByRole("dialog", { name: `Source ${cited?.n}` });
    const passage = panel.getByLabel("Passage");
    const marked = passage.locator("mark");
    await marked.waitFor();
    // The answering line is in the marked passage, the whole passage as the API answers it.
    expect(await marked.textContent()).toBe(cited?.passage);
    expect(await marked.textContent()).toContain(CHECK);
    // The text before comes from page 7, headed so; page 8 runs on after it, without repeating its last sentence.
    expect(await passage.locator('[data-part="before"]').textContent()).toMatch(/^Page 7…/);
    const after = (await passage.locator('[data-part="after"]').textContent()) ?? "";
    const lastSentence =
      (cited?.passage ?? "")
        .replace(/\s+/g, " ")
        .match(/[^.]+\.$/)?.[0]
        ?.trim() ?? "";
    expect(lastSentence.length).toBeGreaterThan(0);
    expect(after.replace(/\s+/g, " ")).not.toContain(lastSentence);
    // The panel opens scrolled to the passage: its start is in view, below a few lines of the text before it.
    const top = (await marked.boundingBox())?.y ?? -1;
    const panelTop = (await panel.boundingBox())?.y ?? 0;
    expect(top).toBeGreaterThan(panelTop + 100);
    expect(top).toBeLessThan(450);
    await shootViews(page, "citation-passage-panel");
    await page.close();
  });
});
