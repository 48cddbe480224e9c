import { describe, expect, it } from "vitest";
import { sourceLabel, sourceUnion } from "./source-label.js";

describe("sourceLabel", () => {
  it("names a file with its page, a file without one, and a chat message", () => {
    expect(sourceLabel({ kind: "file", fileName: "handbook.pdf", page: 3 })).toBe("handbook.pdf · page 3");
    expect(sourceLabel({ kind: "file", fileName: "notes.md" })).toBe("notes.md");
    expect(sourceLabel({ kind: "message" })).toBe("chat · message");
  });
});

describe("sourceUnion", () => {
  it("names each file once with its pages in order, and the chat once", () => {
    const union = sourceUnion([
      [{ kind: "file", fileName: "handbook.pdf", page: 7 }, { kind: "message" }],
      [
        { kind: "file", fileName: "handbook.pdf", page: 3 },
        { kind: "file", fileName: "handbook.pdf", page: 7 },
        { kind: "file", fileName: "notes.md" },
        { kind: "message" },
      ],
    ]);
    expect(union).toEqual(["handbook.pdf · pages 3, 7", "chat · messages", "notes.md"]);
  });

  it("is empty for lessons without sources", () => {
    expect(sourceUnion([[], []])).toEqual([]);
  });
});
