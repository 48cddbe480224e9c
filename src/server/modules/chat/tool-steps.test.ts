import { describe, expect, it } from "vitest";
import type { StoredToolCall } from "../../db/schema/index.js";
import { capResult, TOOL_RESULT_MAX_CHARS } from "./generation/generation-manager.js";
import { lastStep, replyTurn, UNANSWERED_RESULT } from "./tool-steps.js";

const call = (over: Partial<StoredToolCall>): StoredToolCall => ({
  id: "c1",
  tool: "builtin:current_time",
  step: 1,
  args: {},
  result: "now",
  status: "done",
  textOffset: 0,
  ...over,
});

describe("replyTurn", () => {
  it("is plain text without calls", () => {
    expect(replyTurn("Hello", [])).toEqual({ role: "assistant", content: "Hello" });
  });

  it("cuts the text into steps at each step's offset, the rest after the last step", () => {
    const turn = replyTurn("Let me check.It is noon. Also: done.", [
      call({ id: "a", step: 1, textOffset: 13 }),
      call({ id: "b", step: 2, textOffset: 25, tool: "mcp:3:echo", status: "error", result: "boom" }),
      call({ id: "c", step: 2, textOffset: 25, status: "awaiting-approval", result: null }),
    ]);
    expect(turn.content).toBe("Also: done.");
    expect(turn.steps).toEqual([
      { text: "Let me check.", calls: [{ id: "a", name: "current_time", input: {}, output: "now", isError: false }] },
      {
        text: "It is noon. ",
        calls: [
          { id: "b", name: "mcp3_echo", input: {}, output: "boom", isError: true },
          // A call never answered still gets a result: providers refuse a call without one.
          { id: "c", name: "current_time", input: {}, output: UNANSWERED_RESULT, isError: true },
        ],
      },
    ]);
    expect(lastStep([call({ step: 1 }), call({ step: 3 })])).toBe(3);
  });
});

describe("capResult", () => {
  it("keeps a short result, cuts a long one and says so, and drops NUL", () => {
    expect(capResult("a\u0000b")).toBe("ab");
    const long = capResult("x".repeat(TOOL_RESULT_MAX_CHARS + 10));
    expect(long.startsWith("x".repeat(TOOL_RESULT_MAX_CHARS))).toBe(true);
    expect(long).toContain(`${TOOL_RESULT_MAX_CHARS + 10} characters, ${TOOL_RESULT_MAX_CHARS} kept`);
  });
});
