import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { filesApi } from "../../src/shared/contracts/knowledge.js";
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

/** The system text of the provider's last request (the numbered sources ride on it). */
function lastSystem(): string {
  const body = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
  return body.messages
    .filter((m) => m.role === "system")
    .map((m) => String(m.content))
    .join("\n");
}

/** Source [n] of the last request as the model read it: its label, and its text up to the next source. */
function givenSource(n: number): { label: string; text: string } | null {
  const system = lastSystem();
  const at = system.indexOf(`\n[${n}] `);
  if (at < 0) return null;
  const rest = system.slice(at + 1);
  const end = rest.search(/\n\n\[\d+\] /);
  const entry = end < 0 ? rest : rest.slice(0, end);
  const newline = entry.indexOf("\n");
  return { label: entry.slice(`[${n}] `.length, newline), text: entry.slice(newline + 1) };
}

/** A question with a library file attached: the reply's events, read whole. */
const askWith = (id: number, content: string, fileId: number) =>
  user.call(chatsApi.reply, { params: { id }, body: { content, fileIds: [fileId] } });
const citation = (id: number, messageId: number, n: number) => user.call(chatsApi.citation, { params: { id, messageId, n } });

async function uploadPdf(name: string, pdfPages: string[]) {
  const res = await user.call(filesApi.upload, {}, { multipart: multipartFile("file", name, "application/pdf", await makePdf(pdfPages)) });
  expect(res.status, res.response.body).toBe(201);
  const file = await settledFile(user, res.data.id);
  expect(file).toMatchObject({ status: "ready", pages: pdfPages.length, error: null });
  return file;
}

/** The sentences of a text, its line breaks (the PDF's lines) read as spaces. */
const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .match(/[^.]+\./g)
    ?.map((x) => x.trim()) ?? [];

describe("a 40-page PDF attached to a question", () => {
  it("is read, searched with the question, and cited at page 31", async () => {
    const bytes = await makePdf(pages);
    const res = await user.call(filesApi.upload, {}, { multipart: multipartFile("file", "biology.pdf", "application/pdf", bytes) });
    expect(res.status, res.response.body).toBe(201);
    const uploaded = res.data;
    expect(uploaded).toMatchObject({ name: "biology.pdf", type: "application/pdf", kind: "pdf", collectionId: null });
    expect(["queued", "processing"]).toContain(uploaded.status);

    const file = await settledFile(user, uploaded.id);
    expect(file).toMatchObject({ status: "ready", pages: 40, error: null });

    const chat = await newChat(user);
    // The stand-in echoes the question, so its reply holds "[1]": the one passage given, if it is page 31's.
    const reply = await askWith(chat.id, "What does the quokkatron enzyme do? [1]", file.id);
    expect(reply.status, reply.response.body).toBe(200);
    const done = eventOf(parseEvents(reply.response.body).at(-1), "done");

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
    const messages = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
    expect(messages.at(-1)?.citations[0]?.page).toBe(31);
    const opened = await citation(chat.id, done.assistantMessage.id, 1);
    expect(opened.status).toBe(200);
    expect(opened.data).toMatchObject({ n: 1, fileName: "biology.pdf", page: 31 });
    expect(opened.data.excerpt).toContain("quokkatron");

    // The user's message keeps the attachment.
    expect(messages.at(-2)?.attachments).toEqual([
      expect.objectContaining({ fileId: file.id, name: "biology.pdf", type: "application/pdf", kind: "pdf", missing: false }),
    ]);
  });
});

describe("a citation shows what it cites (decision 058)", () => {
  // A manual's page 8: its options in one long paragraph, more than one piece (about 400 tokens each), the answering
  // line far past the 300 characters a citation keeps as its excerpt.
  const OPTIONS = Array.from(
    { length: 60 },
    (_, i) => `Option number ${i + 1} sets the ${["alpha", "beta", "gamma", "delta", "omega"][i % 5]} knob to level ${i + 1}.`,
  );
  const CHECK = "The flag -c, --check checks the syntax only.";
  const manual = Array.from({ length: 40 }, (_, i) =>
    i + 1 === 8
      ? `Usage: asn1Parser [options] file. Mandatory arguments to long options are mandatory for short options too. ${OPTIONS.slice(0, 12).join(" ")} ${CHECK} ${OPTIONS.slice(12).join(" ")}`
      : `Page ${i + 1}. ${FILLER}`,
  );

  it("answers the whole passage the model was given, with neighbours that repeat none of it", async () => {
    const file = await uploadPdf("libtasn1.pdf", manual);
    const chat = await newChat(user);
    const reply = await askWith(chat.id, "Which asn1Parser flag checks the syntax only? [1] [2] [3] [4]", file.id);
    expect(reply.status, reply.response.body).toBe(200);
    const done = eventOf(parseEvents(reply.response.body).at(-1), "done");
    // The source the model read the answer in: page 8's piece holding the line.
    const cited = done.assistantMessage.citations.find((c) => givenSource(c.n)?.text.includes(CHECK));
    expect(cited).toMatchObject({ fileName: "libtasn1.pdf", page: 8 });
    const given = givenSource(cited?.n ?? 0);
    expect(given?.label).toBe("libtasn1.pdf, page 8");
    // The stored excerpt is cut before the line (what the panel showed before)...
    expect(cited?.excerpt).not.toContain("--check");

    const opened = await citation(chat.id, done.assistantMessage.id, cited?.n ?? 0);
    expect(opened.status, opened.response.body).toBe(200);
    const detail = opened.data;
    // ...the panel's passage is the whole text the model was given, the line in it.
    expect(detail.passage).toBe(given?.text);
    expect(detail.passage).toContain(CHECK);
    // Page 8 runs on in its next piece, which starts with the last words of this one: shown without them, so no
    // sentence appears twice, and nothing between the passage and its after is lost.
    expect(detail.after.length).toBeGreaterThan(0);
    expect(detail.afterPage).toBeNull();
    const shown = [...sentencesOf(detail.before), ...sentencesOf(detail.passage), ...sentencesOf(detail.after.replace(/…$/, ""))];
    const whole = shown.filter((x) => /^(Option number \d+ sets the \w+ knob to level \d+|The flag .*)\.$/.test(x));
    expect(new Set(whole).size).toBe(whole.length);
    const numbers = whole.filter((x) => x.startsWith("Option")).map((x) => Number(/\d+/.exec(x)?.[0]));
    // The options read on in order across the passage's end: none skipped, none repeated.
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] ?? 0) + i));
  });
});

describe("a document sent whole is numbered by page (decision 058)", () => {
  const ENZYME = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";
  // Forty short pages: the whole PDF is small enough to go to the model entire.
  const short = Array.from({ length: 40 }, (_, i) =>
    i + 1 === 31 ? `Page ${i + 1}. ${ENZYME}` : `Page ${i + 1}. Leaf number ${i + 1} is green.`,
  );

  it("gives each page as its own source, so the citation names page 31 and opens it among its neighbours", async () => {
    const file = await uploadPdf("tiny.pdf", short);
    const chat = await newChat(user);
    const reply = await askWith(chat.id, "What does the quokkatron enzyme do? [31]", file.id);
    expect(reply.status, reply.response.body).toBe(200);
    const done = eventOf(parseEvents(reply.response.body).at(-1), "done");
    expect(givenSource(1)).toEqual({ label: "tiny.pdf, page 1", text: "Page 1. Leaf number 1 is green." });
    expect(givenSource(31)).toEqual({ label: "tiny.pdf, page 31", text: `Page 31. ${ENZYME}` });
    expect(givenSource(40)?.label).toBe("tiny.pdf, page 40");
    expect(givenSource(41)).toBeNull();

    expect(done.assistantMessage.citations).toEqual([
      { n: 31, fileId: file.id, fileName: "tiny.pdf", page: 31, excerpt: `Page 31. ${ENZYME}` },
    ]);
    const opened = await citation(chat.id, done.assistantMessage.id, 31);
    expect(opened.status, opened.response.body).toBe(200);
    expect(opened.data).toMatchObject({
      page: 31,
      passage: `Page 31. ${ENZYME}`,
      before: "Page 30. Leaf number 30 is green.",
      beforePage: 30,
      after: "Page 32. Leaf number 32 is green.",
      afterPage: 32,
    });
  });
});
