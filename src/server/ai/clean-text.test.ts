import { describe, expect, it } from "vitest";
import { cleanProviderText, cleanProviderValue, StreamTextCleaner } from "./clean-text.js";

describe("text from providers", () => {
  it("loses NUL and lone surrogates, and keeps real text (pairs, emoji, accents) as it is", () => {
    expect(cleanProviderText("a\u0000b\u0000")).toBe("ab");
    expect(cleanProviderText("x\ud800y\udfffz")).toBe("xyz");
    expect(cleanProviderText("café 😀 日本")).toBe("café 😀 日本");
  });

  it("cleans every string of a structured answer, keys included", () => {
    expect(cleanProviderValue({ "t\u0000": ["a\u0000", { b: "\ud800c" }], n: 1, ok: true })).toEqual({
      t: ["a", { b: "c" }],
      n: 1,
      ok: true,
    });
  });

  it("keeps a surrogate pair split across two stream pieces, and drops a half that never gets its other half", () => {
    const [high, low] = ["😀".charAt(0), "😀".charAt(1)];
    const pieces = new StreamTextCleaner();
    expect(pieces.push(`a${high}`)).toBe("a");
    expect(pieces.push(`${low}b\u0000`)).toBe("😀b");
    expect(pieces.push(`${high}c`)).toBe("c");
  });
});
