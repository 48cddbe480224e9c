import type { QuestionKind, ShortMatch } from "../../../shared/contracts/assessment.js";

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  single: "Single choice",
  multiple: "Multiple choice",
  truefalse: "True or false",
  short: "Short answer",
};

/** The owner's choice of how a short answer meets an accepted one (decision 059), with an example each. */
export const SHORT_MATCH_LABELS: Record<ShortMatch, { label: string; example: string }> = {
  exact: { label: "Matches an accepted answer", example: "“twice” accepts “Twice.” but not “twice a day”" },
  contains: { label: "Contains an accepted answer", example: "“twice” accepts “twice a day”, not “twiced”" },
};
