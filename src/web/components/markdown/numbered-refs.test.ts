import { describe, expect, it } from "vitest";
import { splitNumberedRefs } from "./numbered-refs.js";

describe("splitNumberedRefs", () => {
  it("cuts the text at each known [n] and leaves an unknown one as text", () => {
    expect(splitNumberedRefs("Cells divide [1], see [9] and [2].", new Set([1, 2]))).toEqual([
      "Cells divide ",
      1,
      ", see [9] and ",
      2,
      ".",
    ]);
  });
  it("keeps a text without references whole", () => {
    expect(splitNumberedRefs("No sources here [x] [].", new Set([1]))).toEqual(["No sources here [x] []."]);
    expect(splitNumberedRefs("", new Set([1]))).toEqual([]);
  });
  it("takes adjacent references apart", () => {
    expect(splitNumberedRefs("[1][2]", new Set([1, 2]))).toEqual([1, 2]);
  });
});
