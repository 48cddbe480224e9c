import type { FieldErrors, Resolver } from "react-hook-form";
import {
  type Question,
  type QuestionBody,
  type QuestionKind,
  questionBodySchema,
  type ShortMatch,
  TRUE_FALSE_OPTIONS,
} from "../../../shared/contracts/assessment.js";

/** The question form: options as rows (for useFieldArray), accepted answers one per line. */
export type QuestionFormValues = {
  kind: QuestionKind;
  prompt: string;
  options: { text: string }[];
  correct: number[];
  accepted: string;
  rubric: string;
  aiGrading: boolean;
  match: ShortMatch;
  explanation: string;
};

export const QUESTION_FIELDS = ["prompt", "options", "correct", "accepted", "rubric", "explanation"] as const;

/** The options a kind starts with when the owner switches to it (true/false's are fixed). */
export function optionsFor(kind: QuestionKind, current: { text: string }[]): { text: string }[] {
  if (kind === "truefalse") return TRUE_FALSE_OPTIONS.map((text) => ({ text }));
  if (kind === "short") return [];
  const kept = current.filter((option) => !(TRUE_FALSE_OPTIONS as readonly string[]).includes(option.text));
  while (kept.length < 2) kept.push({ text: "" });
  return kept;
}

export function questionFormValues(question?: Question): QuestionFormValues {
  const kind = question?.kind ?? "single";
  return {
    kind,
    prompt: question?.prompt ?? "",
    options: question ? question.options.map((text) => ({ text })) : optionsFor(kind, []),
    correct: question?.correct ?? [],
    accepted: question?.accepted.join("\n") ?? "",
    rubric: question?.rubric ?? "",
    aiGrading: question?.aiGrading ?? false,
    match: question?.match ?? "exact",
    explanation: question?.explanation ?? "",
  };
}

/** What the form sends: only what the kind uses. */
export function questionBody(values: QuestionFormValues): QuestionBody {
  const choice = values.kind !== "short";
  return {
    kind: values.kind,
    prompt: values.prompt,
    options: choice && values.kind !== "truefalse" ? values.options.map((option) => option.text) : [],
    correct: choice ? [...values.correct].sort((a, b) => a - b) : [],
    accepted: choice
      ? []
      : values.accepted
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean),
    rubric: choice ? "" : values.rubric,
    aiGrading: choice ? false : values.aiGrading,
    match: choice ? "exact" : values.match,
    explanation: values.explanation,
  };
}

/** The contract's own check (`questionBodySchema`, with `questionProblems`), its first message per field. */
export const questionResolver: Resolver<QuestionFormValues> = async (values) => {
  const parsed = questionBodySchema.safeParse(questionBody(values));
  if (parsed.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "prompt");
    errors[field] ??= { type: "validate", message: issue.message };
  }
  return { values: {}, errors: errors as FieldErrors<QuestionFormValues> };
};
