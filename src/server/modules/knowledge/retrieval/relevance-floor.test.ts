import { describe, expect, it } from "vitest";
import { baselineOf, clearsFloor, clearsWordFloor, cosine, isContentsPage, liftOf, RELEVANCE_FLOOR } from "./relevance-floor.js";
import { queryWords } from "./retrieve.js";

const ZONATION = queryWords(
  "Zonation survey with quadrats Learners lay quadrats along a transect and record the species found from the low to the high shore",
);
const COASTAL =
  "On a rocky shore the species change from the low shore to the high shore: this is zonation. In a survey, lay a tape as a " +
  "transect and place quadrats at every metre along it, recording the species in each.";
const ASN1 =
  "asn1Parser reads a file of ASN.1 definitions and writes a C array of them. -c, --check checks the syntax only. " +
  "-o, --output FILE writes the array to FILE. Mandatory arguments to long options are mandatory for short options too.";
const CONTENTS = [
  "Contents",
  "1 Introduction . . . . . . . . . . . . . . . . . . . . . . . . 1",
  "2 The rocky shore . . . . . . . . . . . . . . . . . . . . . . 4",
  "2.1 Zonation . . . . . . . . . . . . . . . . . . . . . . . . . 5",
  "2.2 Quadrats and transects . . . . . . . . . . . . . . . . . . 9",
  "2.3 Recording species . . . . . . . . . . . . . . . . . . . . 12",
  "3 The high shore . . . . . . . . . . . . . . . . . . . . . . 15",
  "4 The low shore ........................ 21",
].join("\n");

describe("the relevance floor (decision 067)", () => {
  it("by words: a passage holding a quarter of the question's words (at least two) clears it, an unrelated page does not", () => {
    expect(clearsWordFloor(ZONATION, COASTAL)).toBe(true);
    expect(clearsWordFloor(ZONATION, ASN1)).toBe(false);
    // Two words are needed even for a short question; a one-word question needs its word.
    expect(clearsWordFloor(["zonation", "quadrats"], "Zonation only.")).toBe(false);
    expect(clearsWordFloor(["zonation", "quadrats"], "Zonation and quadrats.")).toBe(true);
    expect(clearsWordFloor(["zonation"], "Zonation.")).toBe(true);
    expect(clearsWordFloor([], "anything")).toBe(false);
  });

  it("a table of contents is never a source, with dotted leaders or Markdown anchors; prose that cites pages stays one", () => {
    expect(isContentsPage(CONTENTS)).toBe(true);
    expect(clearsFloor({ words: ZONATION, text: CONTENTS })).toBe(false);
    // The same entries run together on one line (a long paragraph split by sentences) are still contents.
    expect(isContentsPage(CONTENTS.replaceAll("\n", " "))).toBe(true);
    const anchors = [
      "## Contents",
      "- [Zonation](#zonation)",
      "- [Quadrats](#quadrats)",
      "- [Transects](#transects)",
      "- [Species](#species)",
    ];
    expect(isContentsPage(anchors.join("\n"))).toBe(true);
    expect(isContentsPage(COASTAL)).toBe(false);
    const prose = `${COASTAL} See the table on page 12 and the map .... 14 for the sites, and the key on page 30.`;
    expect(isContentsPage(prose)).toBe(false);
  });

  it("by meaning: the lift over the model's unrelated baseline, so one floor fits models that place unrelated text apart", () => {
    // A model whose unrelated texts sit near 0.1 (text-embedding-3) and one near 0.7 (ada-002): the same lift clears.
    expect(liftOf(0.45, 0.1)).toBeGreaterThanOrEqual(RELEVANCE_FLOOR.meaningLift);
    expect(liftOf(0.84, 0.7)).toBeGreaterThanOrEqual(RELEVANCE_FLOOR.meaningLift);
    // An unrelated passage sits at its model's baseline: 0.72 would clear a fixed 0.3 floor, not this one.
    expect(liftOf(0.72, 0.7)).toBeLessThan(RELEVANCE_FLOOR.meaningLift);
    expect(liftOf(0.12, 0.1)).toBeLessThan(RELEVANCE_FLOOR.meaningLift);
    expect(clearsFloor({ words: ZONATION, text: ASN1, similarity: 0.84, baseline: 0.7 })).toBe(true);
    expect(clearsFloor({ words: ZONATION, text: ASN1, similarity: 0.72, baseline: 0.7 })).toBe(false);
    // Not found by the vector search: only its words count.
    expect(clearsFloor({ words: ZONATION, text: ASN1, baseline: 0.7 })).toBe(false);
  });

  it("the baseline is the median similarity to the control texts (one related control does not move it)", () => {
    const q = [1, 0, 0];
    const controls = [
      [0.1, 1, 0],
      [0.2, 0, 1],
      [1, 0.01, 0],
    ];
    const sims = controls.map((c) => cosine(q, c)).sort((a, b) => a - b);
    expect(baselineOf(q, controls)).toBeCloseTo(sims[1] as number, 6);
    expect(baselineOf(q, [])).toBe(0);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([2, 0], [3, 0])).toBeCloseTo(1, 6);
  });
});
