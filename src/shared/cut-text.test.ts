import { describe, expect, it } from "vitest";
import { cutText, sliceWhole } from "./cut-text.js";

const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("cutting text", () => {
  it("never leaves half of a surrogate pair, so the cut can be written as JSON and stored as jsonb", () => {
    const text = `${"a".repeat(299)}𝑥 and more`;
    expect(LONE_HALF.test(text.slice(0, 300))).toBe(true);
    const cut = cutText(text, 300);
    expect(LONE_HALF.test(cut)).toBe(false);
    expect(cut).toBe(`${"a".repeat(299)}…`);
    expect(JSON.parse(JSON.stringify({ cut })).cut).toBe(cut);
  });

  it("keeps a pair that fits whole, and text that fits as it is", () => {
    expect(sliceWhole("ab😀c", 4)).toBe("ab😀");
    expect(sliceWhole("ab😀c", 3)).toBe("ab");
    expect(cutText("short", 300)).toBe("short");
    expect(cutText("one two three", 7)).toBe("one two…");
  });
});
