import { describe, expect, it } from "vitest";
import { replySegments } from "./tool-segments.js";

const call = (id: string, textOffset: number) => ({ id, textOffset });

describe("replySegments", () => {
  it("is the whole text when the reply made no call", () => {
    expect(replySegments("Hello", [])).toEqual([{ kind: "text", key: "t0", text: "Hello" }]);
  });

  it("puts each call between the text before it and the text after it", () => {
    const segments = replySegments("Let me check. It is noon.", [call("a", 14)]);
    expect(segments.map((s) => (s.kind === "text" ? s.text : s.calls.map((c) => c.id)))).toEqual(["Let me check. ", ["a"], "It is noon."]);
  });

  it("groups calls made at the same place, in the order made, and starts with them when no text came first", () => {
    const segments = replySegments("Both answered.", [call("a", 0), call("b", 0), call("c", 5)]);
    expect(segments.map((s) => (s.kind === "text" ? s.text : s.calls.map((c) => c.id)))).toEqual([["a", "b"], "Both ", ["c"], "answered."]);
  });

  it("puts a call whose place the text has not reached yet at the end, and never goes back before an earlier call", () => {
    const segments = replySegments("Short", [call("a", 3), call("b", 1), call("c", 99)]);
    expect(segments.map((s) => (s.kind === "text" ? s.text : s.calls.map((c) => c.id)))).toEqual(["Sho", ["a", "b"], "rt", ["c"]]);
  });

  it("gives every segment its own key", () => {
    const keys = replySegments("ab", [call("x", 1), call("y", 2)]).map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
