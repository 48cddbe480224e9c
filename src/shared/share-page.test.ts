import { describe, expect, it } from "vitest";
import { type SharePageData, shareDescription } from "./share-page.js";

const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const shared = (...contents: string[]) => ({ messages: contents.map((content) => ({ content })) }) as unknown as SharePageData;

describe("a shared chat's description", () => {
  it("is the first two messages as plain words, cut near 200 characters at a word", () => {
    expect(shareDescription(shared("**Hello**  there", "# Answer", "not this one"))).toBe("Hello there Answer");
    const long = shareDescription(shared("word ".repeat(60)));
    expect(long.length).toBeLessThanOrEqual(198);
    expect(long.endsWith("word…")).toBe(true);
  });

  it("never ends in half of a surrogate pair (an emoji, a math letter at the cut)", () => {
    const text = `${"a".repeat(196)}𝑥${"b".repeat(10)}`;
    expect(LONE_HALF.test(text.slice(0, 197))).toBe(true);
    const cut = shareDescription(shared(text));
    expect(LONE_HALF.test(cut)).toBe(false);
    expect(cut).toBe(`${"a".repeat(196)}…`);
  });
});
