import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { countTokens as o200kTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { type Chunk, chunkText, countTokens } from "./chunk-text.js";
import type { Extracted } from "./extracted.js";

const root = path.resolve(import.meta.dirname, "../../../../..");

/** Deterministic prose: sentence n of a section, about 12 words, each sentence unique. */
function sentence(section: string, n: number): string {
  return `In ${section} the observation number ${n} shows that careful readers notice small details every single time.`;
}
function paragraph(section: string, from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => sentence(section, from + i)).join(" ");
}
const single = (text: string, structure?: Extracted["structure"]): Extracted => ({
  pages: [{ page: null, text }],
  pageCount: null,
  structure,
});

function expectWellFormed(chunks: Chunk[], maxTokens: number) {
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i);
    expect(chunk.text.trim()).not.toBe("");
    expect(chunk.tokens).toBe(countTokens(chunk.text));
    expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
  });
}

describe("countTokens", () => {
  it("counts an estimate close to, and not below, OpenAI's o200k tokenizer on prose and code", () => {
    const docs = ["docs/ARCHITECTURE.md", ...readdirSync(path.join(root, "docs/decisions")).map((f) => `docs/decisions/${f}`)].map((f) =>
      readFileSync(path.join(root, f), "utf8"),
    );
    const code = ["src/server/app.ts", "src/server/modules/chat/chat-service.ts"].map((f) => readFileSync(path.join(root, f), "utf8"));
    for (const [name, texts] of [
      ["docs", docs],
      ["code", code],
    ] as const) {
      const ratio = texts.reduce((sum, t) => sum + countTokens(t), 0) / texts.reduce((sum, t) => sum + o200kTokens(t), 0);
      expect(ratio, name).toBeGreaterThanOrEqual(1);
      expect(ratio, name).toBeLessThan(1.3);
    }
  });

  it("is additive over whitespace and counts scripts without spaces per character", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("   \n\t ")).toBe(0);
    expect(countTokens("alpha beta\n\ngamma")).toBe(countTokens("alpha beta") + countTokens("gamma"));
    expect(countTokens("細胞は生命の単位です")).toBe(10);
    expect(countTokens("клетка")).toBe(3);
  });
});

describe("chunkText", () => {
  it("follows headings: each chunk keeps the path of headings above it, and a new heading starts a chunk", () => {
    const text = [
      "# Chapter 1",
      paragraph("chapter one", 1, 3),
      "# Chapter 2",
      "## Cells",
      paragraph("cells", 1, 3),
      "### Membranes",
      paragraph("membranes", 1, 2),
      "## Tissues",
      paragraph("tissues", 1, 2),
    ].join("\n\n");
    const chunks = chunkText(single(text));
    expectWellFormed(chunks, 600);
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ["Chapter 1"],
      ["Chapter 2", "Cells"],
      ["Chapter 2", "Cells", "Membranes"],
      ["Chapter 2", "Tissues"],
    ]);
    // A chapter's title and its first section's title go with the section's first paragraph, not alone.
    expect(chunks[1]!.text.startsWith("# Chapter 2\n\n## Cells\n\nIn cells")).toBe(true);
    expect(chunks[3]!.text).toContain(sentence("tissues", 2));
    expect(chunks[3]!.text).not.toContain("membranes");
  });

  it("reads no headings in plain text, and none inside a fenced code block", () => {
    expect(chunkText(single("# not a heading\n\nsome code", "plain"))[0]!.headingPath).toEqual([]);
    const fenced = chunkText(single("# Real\n\n```\n# comment in code\n```\n\nafter"));
    expect(fenced.every((c) => c.headingPath.join("/") === "Real")).toBe(true);
  });

  it("sizes chunks about the target, never over the max, with an overlap between the chunks of one section", () => {
    // 60 paragraphs of 4 sentences (about 75 tokens each): a long section.
    const text = ["# Long", ...Array.from({ length: 60 }, (_, p) => paragraph("the long section", p * 4, 4))].join("\n\n");
    const chunks = chunkText(single(text), { targetTokens: 400, maxTokens: 600, overlapTokens: 60 });
    expectWellFormed(chunks, 600);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.tokens).toBeGreaterThan(300);
    for (let i = 1; i < chunks.length; i += 1) {
      const previous = chunks[i - 1]!.text;
      const words = chunks[i]!.text.split(/\s+/);
      // The next chunk opens with the end of the one before: its first 20 words are the end of the previous one.
      const opening = words.slice(0, 20).join(" ");
      expect(previous.replace(/\s+/g, " ")).toContain(opening);
      const overlap = countTokens(chunks[i]!.text) - countTokens(chunks[i]!.text.replace(opening, ""));
      expect(overlap).toBeGreaterThan(0);
    }
    // Every sentence of the text is in some chunk.
    for (let n = 0; n < 240; n += 1) expect(chunks.some((c) => c.text.includes(sentence("the long section", n)))).toBe(true);
  });

  it("splits a paragraph over the max at sentences, then a sentence over it at words, then a word by characters", () => {
    const longParagraph = paragraph("one huge paragraph", 0, 120);
    const longSentence = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" ");
    const longWord = "x".repeat(20_000);
    for (const text of [longParagraph, longSentence, longWord]) {
      const chunks = chunkText(single(text), { targetTokens: 100, maxTokens: 150, overlapTokens: 20 });
      expectWellFormed(chunks, 150);
      expect(chunks.length).toBeGreaterThan(1);
    }
    const bySentence = chunkText(single(longParagraph), { targetTokens: 100, maxTokens: 150, overlapTokens: 0 });
    for (const chunk of bySentence) expect(chunk.text).toMatch(/^In one huge paragraph .*time\.$/s);
  });

  it("keeps each chunk on its page: a chunk never spans two pages", () => {
    const extracted: Extracted = {
      pages: Array.from({ length: 5 }, (_, i) => ({ page: i + 1, text: paragraph(`page ${i + 1}`, 0, 8) })),
      pageCount: 5,
      structure: "plain",
    };
    const chunks = chunkText(extracted);
    expectWellFormed(chunks, 600);
    for (const chunk of chunks) {
      expect(chunk.page).not.toBeNull();
      expect(chunk.text).toContain(`In page ${chunk.page} `);
      for (let other = 1; other <= 5; other += 1) if (other !== chunk.page) expect(chunk.text).not.toContain(`In page ${other} `);
    }
    expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it("never makes an empty chunk", () => {
    expect(chunkText({ pages: [], pageCount: 0 })).toEqual([]);
    expect(
      chunkText({
        pages: [
          { page: 1, text: "" },
          { page: 2, text: "  \n\n \n" },
        ],
        pageCount: 2,
      }),
    ).toEqual([]);
    expect(chunkText(single("only words")).map((c) => c.text)).toEqual(["only words"]);
  });

  it("is deterministic", () => {
    const text = ["# A", paragraph("a", 0, 50), "## B", paragraph("b", 0, 70)].join("\n\n");
    expect(chunkText(single(text))).toEqual(chunkText(single(text)));
    expect(JSON.stringify(chunkText(single(text)))).toBe(JSON.stringify(chunkText(single(text))));
  });
});
