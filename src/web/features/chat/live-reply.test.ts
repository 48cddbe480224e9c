import { describe, expect, it } from "vitest";
import type { Message } from "../../../shared/contracts/chat.js";
import type { ToolCall } from "../../../shared/contracts/tools.js";
import { appendDelta, mergeLive, optimisticMessage, withToolCall } from "./live-reply.js";

const message = (id: number, content: string, role: Message["role"] = "assistant"): Message => ({
  id,
  chatId: 1,
  parentId: id > 1 ? id - 1 : null,
  role,
  content,
  status: "streaming",
  error: null,
  platformSlug: "openai",
  model: "gpt-4o-mini",
  attachments: [],
  citations: [],
  toolCalls: [],
  inputTokens: null,
  outputTokens: null,
  personalityName: null,
  createdAt: "2024-11-15T10:00:00.000Z",
});

describe("appendDelta", () => {
  it("appends the next piece", () => {
    expect(appendDelta(message(1, "Hello"), 5, " world").content).toBe("Hello world");
  });

  it("adds only the part not shown yet when a resumed stream overlaps the snapshot", () => {
    expect(appendDelta(message(1, "Hello wor"), 5, " world").content).toBe("Hello world");
  });

  it("ignores a delta already shown in full, and one that would leave a gap", () => {
    const shown = message(1, "Hello world");
    expect(appendDelta(shown, 5, " world")).toBe(shown);
    expect(appendDelta(shown, 0, "Hello")).toBe(shown);
    expect(appendDelta(message(1, "Hi"), 5, "later")).toEqual(message(1, "Hi"));
  });
});

describe("mergeLive", () => {
  const stored = [message(1, "Q", "user"), message(2, "old answer"), message(3, "partial")];

  it("shows the stored messages when nothing is live", () => {
    expect(mergeLive(stored, null)).toBe(stored);
  });

  it("puts the live copy of a stored reply last instead of the stored one (resume)", () => {
    const live = message(3, "partial and more");
    expect(mergeLive(stored, { phase: "streaming", userMessage: null, assistant: live, replacesId: null }).map((m) => m.content)).toEqual([
      "Q",
      "old answer",
      "partial and more",
    ]);
  });

  it("hides the reply being regenerated and adds the optimistic user message", () => {
    const user = optimisticMessage(1, { content: "Again", attachments: [{ name: "a.txt", content: "héllo" }] });
    expect(user.id).toBeLessThan(0);
    expect(user.attachments).toEqual([{ name: "a.txt", size: 6, fileId: null, type: null, kind: null, missing: false }]);
    const merged = mergeLive(stored, { phase: "sending", userMessage: user, assistant: null, replacesId: 3 });
    expect(merged.map((m) => m.id)).toEqual([1, 2, user.id]);
  });

  it("shows a message's library files as the composer had them until the server's copy comes", () => {
    const shownFiles = [{ name: "cat.png", size: 2048, fileId: 7, type: "image/png", kind: "image", missing: false }];
    const user = optimisticMessage(1, { content: "Look", attachments: [], fileIds: [7], shownFiles });
    expect(user.attachments).toEqual(shownFiles);
  });

  it("hides an edited message and the rest of its branch behind the new version", () => {
    const user = optimisticMessage(1, { content: "Q, edited", attachments: [] });
    const merged = mergeLive(stored, { phase: "sending", userMessage: user, assistant: null, replacesId: 1 });
    expect(merged.map((m) => m.content)).toEqual(["Q, edited"]);
    const answered = mergeLive(stored, {
      phase: "streaming",
      userMessage: { ...user, id: 4 },
      assistant: message(5, "new"),
      replacesId: 1,
    });
    expect(answered.map((m) => m.id)).toEqual([4, 5]);
  });
});

describe("withToolCall", () => {
  const toolCall = (id: string, status: ToolCall["status"], result: string | null = null): ToolCall => ({
    id,
    tool: "builtin:current_time",
    name: "Current date and time",
    args: {},
    result,
    status,
    textOffset: 0,
    sources: [],
  });

  it("adds a new call after the others and replaces a known one in its place", () => {
    const first = withToolCall(message(2, ""), toolCall("a", "running"));
    const second = withToolCall(first, toolCall("b", "awaiting-approval"));
    const ended = withToolCall(second, toolCall("a", "done", "12:00"));
    expect(ended.toolCalls.map((c) => [c.id, c.status, c.result])).toEqual([
      ["a", "done", "12:00"],
      ["b", "awaiting-approval", null],
    ]);
    expect(second.toolCalls[0]?.status).toBe("running"); // the earlier copy is left as it was
  });
});
