import { describe, expect, it } from "vitest";
import { QUESTION_MESSAGES } from "../../../shared/contracts/assessment.js";
import { optionsFor, type QuestionFormValues, questionBody, questionFormValues, questionResolver } from "./question-form-values.js";

const values = (over: Partial<QuestionFormValues>): QuestionFormValues => ({ ...questionFormValues(), prompt: "Pick one", ...over });
const errorsOf = async (v: QuestionFormValues) =>
  Object.fromEntries(
    Object.entries((await questionResolver(v, undefined, { fields: {}, shouldUseNativeValidation: false })).errors).map(([k, e]) => [
      k,
      e?.message,
    ]),
  );

describe("the question form", () => {
  it("sends only what the kind uses, accepted answers one per line", () => {
    expect(
      questionBody(values({ kind: "short", accepted: " Lima \n\n lima city ", correct: [1], rubric: "Names Lima", aiGrading: true })),
    ).toEqual({
      kind: "short",
      prompt: "Pick one",
      options: [],
      correct: [],
      accepted: ["Lima", "lima city"],
      rubric: "Names Lima",
      aiGrading: true,
      match: "exact",
      explanation: "",
    });
    // A short answer carries the owner's choice of how an answer meets an accepted one (decision 059).
    expect(questionBody(values({ kind: "short", accepted: "twice", match: "contains" })).match).toBe("contains");
    const single = questionBody(values({ options: [{ text: "A" }, { text: "B" }], correct: [1], accepted: "x", aiGrading: true }));
    expect(single).toMatchObject({ options: ["A", "B"], correct: [1], accepted: [], aiGrading: false });
    // True/false options are the server's own.
    expect(questionBody(values({ kind: "truefalse", options: optionsFor("truefalse", []), correct: [0] })).options).toEqual([]);
  });

  it("gives each kind its starting options, keeping the owner's choices", () => {
    expect(optionsFor("truefalse", [{ text: "A" }])).toEqual([{ text: "True" }, { text: "False" }]);
    expect(optionsFor("single", [{ text: "True" }, { text: "False" }])).toEqual([{ text: "" }, { text: "" }]);
    expect(optionsFor("multiple", [{ text: "A" }, { text: "B" }, { text: "C" }])).toHaveLength(3);
    expect(optionsFor("short", [{ text: "A" }])).toEqual([]);
  });

  it("checks with the contract's rules, under the fields that show them", async () => {
    expect(await errorsOf(values({ prompt: " ", options: [{ text: "A" }, { text: "B" }], correct: [0] }))).toEqual({
      prompt: QUESTION_MESSAGES.prompt,
    });
    expect(await errorsOf(values({ options: [{ text: "A" }, { text: "B" }], correct: [] }))).toEqual({ correct: QUESTION_MESSAGES.single });
    expect(await errorsOf(values({ kind: "multiple", options: [{ text: "A" }], correct: [0] }))).toEqual({
      options: QUESTION_MESSAGES.options,
    });
    expect(await errorsOf(values({ kind: "short", accepted: "", aiGrading: false }))).toEqual({ accepted: QUESTION_MESSAGES.short });
    expect(await errorsOf(values({ kind: "short", accepted: "", aiGrading: true, rubric: "Names Lima" }))).toEqual({});
    expect(await errorsOf(values({ options: [{ text: "A" }, { text: "B" }], correct: [1] }))).toEqual({});
  });
});
