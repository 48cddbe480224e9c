import { describe, expect, it } from "vitest";
import type { FrozenQuestion } from "../../db/schema/index.js";
import {
  answerProblem,
  answersForAi,
  correctByKey,
  gradeAttempt,
  MAX_AI_GRADINGS_PER_ATTEMPT,
  scoreOf,
  showsAnswers,
  wantsAi,
} from "./grading.js";

const base = { options: [], correct: [], accepted: [], rubric: "", aiGrading: false, explanation: "" };
const q = (id: number, fields: Partial<FrozenQuestion> & Pick<FrozenQuestion, "kind">): FrozenQuestion => ({
  ...base,
  id,
  prompt: `Q${id}`,
  ...fields,
});
const single = q(1, { kind: "single", options: ["a", "b", "c"], correct: [1] });
const multiple = q(2, { kind: "multiple", options: ["a", "b", "c", "d"], correct: [0, 2] });
const trueFalse = q(3, { kind: "truefalse", options: ["True", "False"], correct: [1] });
const short = q(4, { kind: "short", accepted: ["Paris", " the city of light "] });
const rubric = q(5, { kind: "short", accepted: ["42"], aiGrading: true, rubric: "Any answer meaning forty-two" });

describe("correctByKey", () => {
  it("single and true/false: the exact index", () => {
    expect(correctByKey(single, [1])).toBe(true);
    expect(correctByKey(single, [0])).toBe(false);
    expect(correctByKey(single, [])).toBe(false);
    expect(correctByKey(trueFalse, [1])).toBe(true);
    expect(correctByKey(trueFalse, [0])).toBe(false);
  });

  it("multiple: exactly the set, in any order", () => {
    expect(correctByKey(multiple, [2, 0])).toBe(true);
    expect(correctByKey(multiple, [0])).toBe(false);
    expect(correctByKey(multiple, [0, 2, 3])).toBe(false);
    expect(correctByKey(multiple, [0, 0])).toBe(false);
  });

  it("short: trimmed and in any case, never a blank", () => {
    expect(correctByKey(short, "  paris ")).toBe(true);
    expect(correctByKey(short, "THE CITY OF LIGHT")).toBe(true);
    expect(correctByKey(short, "Lyon")).toBe(false);
    expect(correctByKey(short, "   ")).toBe(false);
    expect(correctByKey(short, [0])).toBe(false);
  });

  it("short: case, spacing and punctuation do not count (decision 059); an old version without `match` is exact", () => {
    const twice = q(6, { kind: "short", accepted: ["Twice"] });
    expect(correctByKey(twice, "twice.")).toBe(true);
    expect(correctByKey(twice, "  TWICE!! ")).toBe(true);
    expect(correctByKey(q(7, { kind: "short", accepted: ["twice a day"] }), "Twice,  a   day.")).toBe(true);
    expect(correctByKey(twice, "twice a day")).toBe(false);
    expect(correctByKey(q(8, { kind: "short", accepted: ["?!"] }), " ?! ")).toBe(true);
  });

  it("short, contains: the accepted words whole and in order anywhere in the answer, never part of a word", () => {
    const twice = q(9, { kind: "short", accepted: ["twice"], match: "contains" });
    expect(correctByKey(twice, "twice a day")).toBe(true);
    expect(correctByKey(twice, "Twice, a day.")).toBe(true);
    expect(correctByKey(twice, "about twice")).toBe(true);
    expect(correctByKey(twice, "twiced")).toBe(false);
    expect(correctByKey(twice, "once")).toBe(false);
    const phrase = q(10, { kind: "short", accepted: ["low tide"], match: "contains" });
    expect(correctByKey(phrase, "At low tide, mostly")).toBe(true);
    expect(correctByKey(phrase, "tide low")).toBe(false);
  });

  it("no answer is wrong", () => {
    for (const question of [single, multiple, trueFalse, short]) expect(correctByKey(question, undefined)).toBe(false);
  });
});

describe("answerProblem", () => {
  it("accepts values of the question's kind, and an empty answer", () => {
    expect(answerProblem(single, [2])).toBeNull();
    expect(answerProblem(single, [])).toBeNull();
    expect(answerProblem(multiple, [0, 3])).toBeNull();
    expect(answerProblem(short, "anything")).toBeNull();
  });

  it("refuses text for options, options for text, an index out of range, two for one and repeats", () => {
    expect(answerProblem(single, "b")).toMatch(/options/);
    expect(answerProblem(short, [0])).toMatch(/text/);
    expect(answerProblem(single, [3])).toMatch(/one of the options/);
    expect(answerProblem(trueFalse, [0, 1])).toMatch(/one option/);
    expect(answerProblem(multiple, [1, 1])).toMatch(/options/);
  });
});

describe("AI grading", () => {
  it("is wanted only for a short answer with a rubric that the key does not accept", () => {
    expect(wantsAi(rubric, "forty two")).toBe(true);
    expect(wantsAi(rubric, " 42 ")).toBe(false);
    expect(wantsAi(rubric, "  ")).toBe(false);
    expect(wantsAi(short, "Lyon")).toBe(false);
    expect(wantsAi({ ...rubric, aiGrading: false }, "forty two")).toBe(false);
    expect(wantsAi({ ...rubric, rubric: " " }, "forty two")).toBe(false);
  });

  it("is bounded per attempt", () => {
    const many = Array.from({ length: MAX_AI_GRADINGS_PER_ATTEMPT + 3 }, (_, i) => ({ ...rubric, id: 100 + i }));
    const answers = new Map(many.map((m) => [m.id, "forty two"]));
    const picked = answersForAi(many, answers);
    expect(picked.map((p) => p.question.id)).toEqual(many.slice(0, MAX_AI_GRADINGS_PER_ATTEMPT).map((m) => m.id));
  });

  it("uses the AI's verdict only for the very answer it graded", () => {
    const verdict = new Map([[rubric.id, { value: "forty two", grade: { correct: true, reasoning: "Means 42" } }]]);
    const graded = gradeAttempt([rubric], new Map([[rubric.id, "forty two"]]), verdict);
    expect(graded.results).toEqual([{ questionId: 5, correct: true, gradedBy: "ai", reasoning: "Means 42" }]);
    const changed = gradeAttempt([rubric], new Map([[rubric.id, "forty three"]]), verdict);
    expect(changed.results).toEqual([{ questionId: 5, correct: false, gradedBy: "key", reasoning: null }]);
  });
});

describe("score and answers shown", () => {
  it("grades a whole attempt in percent, rounded", () => {
    const answers = new Map<number, number[] | string>([
      [1, [1]],
      [2, [0]],
      [3, [1]],
    ]);
    const { results, score } = gradeAttempt([single, multiple, trueFalse], answers, new Map());
    expect(results.map((r) => r.correct)).toEqual([true, false, true]);
    expect(score).toBe(67);
    expect(scoreOf([])).toBe(0);
    expect(scoreOf([{ correct: true }, { correct: false }, { correct: false }])).toBe(33);
  });

  it("shows answers after each attempt, or only once passed", () => {
    expect(showsAnswers("after_each", false)).toBe(true);
    expect(showsAnswers("after_pass", false)).toBe(false);
    expect(showsAnswers("after_pass", true)).toBe(true);
  });
});
