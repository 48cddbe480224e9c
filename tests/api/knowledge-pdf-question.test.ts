import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShownMessage } from "../../src/shared/contracts/chat.js";
import type { KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, useEmbeddingModel } from "../helpers/chat-setup.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { makePdf } from "../helpers/make-pdf.js";
import { multipartFile } from "../helpers/multipart.js";
import { eventOf } from "../helpers/sse-reader.js";

/**
 * Issue 30's first "Done when", end to end through the API: a real 40-page PDF is uploaded with POST /api/files, read
 * by the ingestion worker (reader thread, pieces, embeddings from the stand-in where pgvector is: PGlite; full text
 * on PostgreSQL), a question answered on page 31 is asked with the file attached, the provider's request carries that
 * page's passage, and the reply's citation opens page 31's passage.
 */
let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;

// About 300 words a page, as a real book's: the whole PDF is far over what goes to the model whole, so it is searched.
const FILLER = "Cells divide and grow while the membrane keeps the inside apart from the outside world. ".repeat(20);
const ANSWER = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";
const pages = Array.from({ length: 40 }, (_, i) => (i + 1 === 31 ? `Page ${i + 1}. ${ANSWER}` : `Page ${i + 1}. ${FILLER}`));

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", fake);
  await useEmbeddingModel(admin);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("a 40-page PDF attached to a question", () => {
  it("is read, searched with the question, and cited at page 31", async () => {
    const bytes = await makePdf(pages);
    const res = await user.request({
      method: "POST",
      url: "/api/files",
      ...multipartFile("file", "biology.pdf", "application/pdf", bytes),
    });
    expect(res.statusCode, res.body).toBe(201);
    const uploaded = res.json() as KnowledgeFile;
    expect(uploaded).toMatchObject({ name: "biology.pdf", type: "application/pdf", kind: "pdf", collectionId: null });
    expect(["queued", "processing"]).toContain(uploaded.status);

    const file = await settledFile(user, uploaded.id);
    expect(file).toMatchObject({ status: "ready", pages: 40, error: null });

    const chat = await newChat(user);
    // The stand-in echoes the question, so its reply holds "[1]": the one passage given, if it is page 31's.
    const reply = await user.post(`/api/chats/${chat.id}/reply`, {
      content: "What does the quokkatron enzyme do? [1]",
      fileIds: [file.id],
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const done = eventOf(parseEvents(reply.body).at(-1), "done");

    // The provider's request carries page 31's passage as source [1].
    const body = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    const system = body.messages
      .filter((m) => m.role === "system")
      .map((m) => String(m.content))
      .join("\n");
    const numbered = system.match(/\[1\] biology\.pdf, page (\d+)\n([^\n]*)/);
    expect(numbered?.[1]).toBe("31");
    expect(numbered?.[2]).toContain(ANSWER);

    // The reply cites it, and the citation opens page 31's passage.
    expect(done.assistantMessage.citations).toHaveLength(1);
    expect(done.assistantMessage.citations[0]).toMatchObject({ n: 1, fileId: file.id, fileName: "biology.pdf", page: 31 });
    const messages = (await user.get(`/api/chats/${chat.id}/messages`)).json() as ShownMessage[];
    expect(messages.at(-1)?.citations[0]?.page).toBe(31);
    const opened = await user.get(`/api/chats/${chat.id}/messages/${done.assistantMessage.id}/citations/1`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ n: 1, fileName: "biology.pdf", page: 31 });
    expect((opened.json() as { excerpt: string }).excerpt).toContain("quokkatron");

    // The user's message keeps the attachment.
    expect(messages.at(-2)?.attachments).toEqual([
      expect.objectContaining({ fileId: file.id, name: "biology.pdf", type: "application/pdf", kind: "pdf", missing: false }),
    ]);
  });
});
