import { describe, expect, it } from "vitest";
import { citedIn } from "./numbered-refs.js";

const sources = [1, 2, 3, 4].map((n) => ({ n, name: `s${n}` }));

describe("citedIn", () => {
  it("keeps each cited source once, by number, and drops numbers that name none", () => {
    expect(citedIn("See [3], then [1][3] and [9].", sources).map((s) => s.n)).toEqual([1, 3]);
  });
  it("cites nothing without markers or without sources", () => {
    expect(citedIn("No markers here, only [a] and [12345].", sources)).toEqual([]);
    expect(citedIn("[1]", [])).toEqual([]);
  });
});
