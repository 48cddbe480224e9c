import { describe, expect, it } from "vitest";
import type { Citation, Message } from "../../../shared/contracts/chat.js";
import type { ToolCall } from "../../../shared/contracts/tools.js";
import { shownCitations } from "./shown-citations.js";

const citation = (n: number, fileName = `f${n}.md`): Citation => ({ n, fileId: 10 + n, fileName, page: null, excerpt: `text ${n}` });
const search = (sources: Citation[]): ToolCall => ({
  id: `call-${sources[0]?.n ?? 0}`,
  tool: "builtin:search_files",
  name: "Search my files",
  args: { query: "q" },
  result: "…",
  status: "done",
  textOffset: 0,
  sources,
});
const reply = (content: string, toolCalls: ToolCall[], citations: Citation[] = []): Message => ({
  id: 7,
  chatId: 1,
  parentId: 6,
  role: "assistant",
  content,
  status: "streaming",
  error: null,
  platformSlug: "openai",
  model: "fake-model",
  attachments: [],
  citations,
  toolCalls,
  inputTokens: null,
  outputTokens: null,
  personalityName: null,
  createdAt: "2025-01-01T00:00:00.000Z",
});

describe("shownCitations", () => {
  it("while streaming, makes chips of the tool's passages the text cites so far, never of those it does not", () => {
    const message = reply("Leaves make sugar [3], roots drink [2][3]; [9] is invented.", [
      search([citation(2), citation(3)]),
      search([citation(4)]),
    ]);
    expect(shownCitations(message, false).map((c) => c.n)).toEqual([2, 3]);
  });

  it("keeps the stored citations of a paused reply beside its tool's passages", () => {
    const message = reply("From my notes [1] and the search [2].", [search([citation(2)])], [citation(1, "notes.md")]);
    expect(shownCitations(message, false).map((c) => `${c.n} ${c.fileName}`)).toEqual(["1 notes.md", "2 f2.md"]);
  });

  it("a settled reply shows what was stored with its end, only", () => {
    const message = reply("Cites [2] and [3].", [search([citation(2), citation(3)])], [citation(2)]);
    expect(shownCitations(message, true).map((c) => c.n)).toEqual([2]);
  });
});
