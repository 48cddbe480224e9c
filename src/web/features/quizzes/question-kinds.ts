import type { QuestionKind } from "../../../shared/contracts/assessment.js";

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  single: "Single choice",
  multiple: "Multiple choice",
  truefalse: "True or false",
  short: "Short answer",
};
