import { describe, expect, it } from "vitest";
import type { Message } from "./chat.js";
import { ENDED_UNANSWERED, endedPausedReply, PAUSED_LEFT } from "./paused-reply.js";
import type { ToolCall } from "./tools.js";

const call = (id: string, status: ToolCall["status"], result: string | null = null): ToolCall =>
  ({ id, tool: "builtin:current_time", name: "Current date and time", args: {}, result, status, textOffset: 0 }) as ToolCall;

const message = (status: Message["status"], toolCalls: ToolCall[]) => ({ id: 7, status, error: null, toolCalls }) as unknown as Message;

describe("endedPausedReply", () => {
  it("ends a paused reply: incomplete with the reason, the waiting call denied, the others as they were", () => {
    const ended = endedPausedReply(message("awaiting-approval", [call("a", "done", "noon"), call("b", "awaiting-approval")]), PAUSED_LEFT);
    expect(ended).toMatchObject({ id: 7, status: "incomplete", error: PAUSED_LEFT });
    expect(ended.toolCalls.map((c) => [c.id, c.status, c.result])).toEqual([
      ["a", "done", "noon"],
      ["b", "denied", ENDED_UNANSWERED],
    ]);
  });

  it("leaves any other message as it is", () => {
    const done = message("complete", [call("a", "done", "noon")]);
    expect(endedPausedReply(done, PAUSED_LEFT)).toBe(done);
  });
});
