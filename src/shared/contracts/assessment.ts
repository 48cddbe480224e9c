import { z } from "zod";
import { certificateVerifyAddress } from "./certificate-address.js";
import { idParamsSchema, idText } from "./common.js";
import { endpoint } from "./endpoint.js";
import { hintsField } from "./fields.js";

// Assessment (issue 32, decision 040): quiz lessons and their questions, attempts graded on the server, certificates,
// drip release and the owner's analytics. A quiz is a lesson whose `kind` is "quiz" (courses.ts). The answer key
// (`correct`, `accepted`, `rubric`) and the explanations are in the owner's shapes only; a learner's shapes never name
// them before the attempt is submitted.

export const QUESTION_KINDS = ["single", "multiple", "truefalse", "short"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const SHOW_ANSWERS = ["after_each", "after_pass"] as const;
/** How a short answer meets an accepted one (decision 059): the same words, or holding them (whole words, in order). */
export const SHORT_MATCHES = ["exact", "contains"] as const;
export type ShortMatch = (typeof SHORT_MATCHES)[number];
/** A true/false question's options: `correct` is [0] for true, [1] for false. */
export const TRUE_FALSE_OPTIONS = ["True", "False"] as const;

export const QUESTION_MESSAGES = {
  prompt: "Question is required",
  promptLong: "Question cannot exceed 2000 characters",
  options: "Give between 2 and 10 options",
  option: "An option cannot be empty",
  single: "Mark exactly one option as correct",
  multiple: "Mark at least one option as correct",
  trueFalse: "Mark the answer as true or false",
  outOfRange: "A correct answer must be one of the options",
  short: "Give at least one accepted answer, or a rubric for the AI to grade with",
  notAQuiz: "This lesson is not a quiz",
  noQuestions: "Add at least one question before publishing",
  notPublished: "This quiz is not published yet",
  noAttemptsLeft: "You have used all your attempts for this quiz",
  submitted: "This attempt is already submitted",
  attemptNotFound: "Attempt not found",
  questionNotFound: "Question not found",
  certificateNotFound: "Certificate not found",
  notComplete: "Finish every lesson and pass every quiz to get your certificate",
  answerText: "Type your answer as text",
  answerOptions: "Choose options from the list",
  answerOne: "Choose one option",
  answerNotOpen: "This attempt is already submitted: start a new attempt to answer again",
  answersChanged: "Your answers changed while they were being graded. Submit again.",
  gradingFailed: "Your answers are saved, but the AI could not grade them. Submit again in a moment.",
  generateFailed: "Could not draft questions",
  nothingToQuizOn: "Write the module's reading lessons first: questions are drafted from their text",
  certificateRevoked: "This certificate was revoked by the course's owner",
} as const;

/** What every question shape shares, before its kind's rules (`questionProblems`) are checked. */
const questionFields = {
  kind: z.enum(QUESTION_KINDS, { error: "Choose a question type" }),
  prompt: z.string({ error: QUESTION_MESSAGES.prompt }).trim().min(1, QUESTION_MESSAGES.prompt).max(2000, QUESTION_MESSAGES.promptLong),
  options: z.array(z.string().trim().min(1, QUESTION_MESSAGES.option).max(500)).max(10, QUESTION_MESSAGES.options),
  correct: z.array(z.number().int().min(0).max(9)).max(10),
  accepted: z.array(z.string().trim().min(1).max(200)).max(20),
  /** Short answers: the owner's rubric; with `aiGrading`, an answer not in `accepted` is graded by the AI against it. */
  rubric: z.string().trim().max(2000),
  aiGrading: z.boolean(),
  /** Short answers: how an answer meets an accepted one, both normalised (decision 059): equal, or containing it. */
  match: z.enum(SHORT_MATCHES),
  explanation: z.string().trim().max(1000),
};

export type QuestionInput = {
  kind: QuestionKind;
  prompt: string;
  options: string[];
  correct: number[];
  accepted: string[];
  rubric: string;
  aiGrading: boolean;
  match: ShortMatch;
  explanation: string;
};

/**
 * A whole question's rules by kind, as [path, message] pairs: the one check of a created question and of a changed one
 * (the PATCH is checked merged with what is stored, on the server, with this same function).
 */
export function questionProblems(q: QuestionInput): [keyof QuestionInput, string][] {
  const problems: [keyof QuestionInput, string][] = [];
  const inRange = q.correct.every((i) => i < q.options.length);
  if (q.kind === "single" || q.kind === "multiple") {
    if (q.options.length < 2) problems.push(["options", QUESTION_MESSAGES.options]);
    if (!inRange) problems.push(["correct", QUESTION_MESSAGES.outOfRange]);
    if (q.kind === "single" && q.correct.length !== 1) problems.push(["correct", QUESTION_MESSAGES.single]);
    if (q.kind === "multiple" && (q.correct.length < 1 || new Set(q.correct).size !== q.correct.length)) {
      problems.push(["correct", QUESTION_MESSAGES.multiple]);
    }
  }
  if (q.kind === "truefalse" && (q.correct.length !== 1 || (q.correct[0] !== 0 && q.correct[0] !== 1))) {
    problems.push(["correct", QUESTION_MESSAGES.trueFalse]);
  }
  if (q.kind === "short" && q.accepted.length === 0 && !(q.aiGrading && q.rubric)) problems.push(["accepted", QUESTION_MESSAGES.short]);
  return problems;
}

/** POST /api/lessons/{id}/questions (the owner). A true/false question's options are set by the server. */
export const questionBodySchema = z
  .object({
    kind: questionFields.kind,
    prompt: questionFields.prompt,
    options: questionFields.options.default([]),
    correct: questionFields.correct.default([]),
    accepted: questionFields.accepted.default([]),
    rubric: questionFields.rubric.default(""),
    aiGrading: questionFields.aiGrading.default(false),
    match: questionFields.match.default("exact"),
    explanation: questionFields.explanation.default(""),
  })
  .superRefine((q, ctx) => {
    const options = q.kind === "truefalse" ? [...TRUE_FALSE_OPTIONS] : q.options;
    for (const [path, message] of questionProblems({ ...q, options })) ctx.addIssue({ code: "custom", path: [path], message });
  });
export type QuestionBody = z.input<typeof questionBodySchema>;

/** PATCH /api/questions/{id}: only what was sent changes; the merged question is checked with `questionProblems`. */
export const updateQuestionBodySchema = z.object({
  kind: questionFields.kind.optional(),
  prompt: questionFields.prompt.optional(),
  options: questionFields.options.optional(),
  correct: questionFields.correct.optional(),
  accepted: questionFields.accepted.optional(),
  rubric: questionFields.rubric.optional(),
  aiGrading: questionFields.aiGrading.optional(),
  match: questionFields.match.optional(),
  explanation: questionFields.explanation.optional(),
});
export type QuestionChanges = z.output<typeof updateQuestionBodySchema>;

/** The owner's view of a draft question, with its key. */
export const questionSchema = z.object({
  id: z.number().int(),
  lessonId: z.number().int(),
  order: z.number().int(),
  kind: z.enum(QUESTION_KINDS),
  prompt: z.string(),
  options: z.array(z.string()),
  correct: z.array(z.number().int()),
  accepted: z.array(z.string()),
  rubric: z.string(),
  aiGrading: z.boolean(),
  match: z.enum(SHORT_MATCHES),
  explanation: z.string(),
});
export type Question = z.infer<typeof questionSchema>;

/** A question as a learner gets it: never its key, rubric or explanation. */
export const learnerQuestionSchema = z.object({
  id: z.number().int(),
  kind: z.enum(QUESTION_KINDS),
  prompt: z.string(),
  options: z.array(z.string()),
});
export type LearnerQuestion = z.infer<typeof learnerQuestionSchema>;

/** POST /api/lessons/{id}/publish-quiz: the questions as they are become the quiz's next version. */
export const publishQuizBodySchema = z.object({
  passMark: z
    .number({ error: "Pass mark is required" })
    .int()
    .min(0, "Pass mark must be between 0 and 100")
    .max(100, "Pass mark must be between 0 and 100"),
  /** Attempts a learner may make; null: as many as they like. */
  attempts: z.number().int().min(1, "Allow at least one attempt").max(100).nullable(),
  showAnswers: z.enum(SHOW_ANSWERS).default("after_each"),
  /**
   * Learners may ask the course's lesson tutor while an attempt on this version is in progress (decision 067). Off by
   * default: the tutor of every lesson of the course is closed until the attempt is submitted.
   */
  tutorOpen: z.boolean().default(false),
});
export type PublishQuizInput = z.output<typeof publishQuizBodySchema>;

const quizSettingsSchema = z.object({
  version: z.number().int(),
  passMark: z.number().int(),
  attempts: z.number().int().nullable(),
  showAnswers: z.enum(SHOW_ANSWERS),
  tutorOpen: z.boolean(),
  publishedAt: z.string(),
});

/** GET /api/lessons/{id}/quiz (the owner and admins): the draft questions and the published version, if any. */
export const quizSchema = z.object({
  lessonId: z.number().int(),
  questions: z.array(questionSchema),
  published: quizSettingsSchema.nullable(),
  /** The draft differs from the published version (publish again to show it to learners). */
  changedSincePublish: z.boolean(),
});
export type Quiz = z.infer<typeof quizSchema>;

/** POST /api/lessons/{id}/questions/generate: drafts appended to the quiz for the owner to review. */
export const generateQuestionsBodySchema = z.object({
  count: z.number().int().min(1).max(20).default(5),
  kinds: z.array(z.enum(QUESTION_KINDS)).min(1).max(4).default(["single", "multiple", "truefalse", "short"]),
  hints: hintsField,
});

/**
 * What the AI answers when it drafts questions (structured output): every field named, none defaulted, so the provider's
 * JSON schema requires them all. Each draft is then checked with `questionBodySchema` (its kind's rules) on the server.
 */
export const draftedQuestionsSchema = z.object({
  questions: z.array(
    z.object({
      kind: z.enum(QUESTION_KINDS),
      prompt: z.string(),
      options: z.array(z.string()),
      correct: z.array(z.number().int()),
      accepted: z.array(z.string()),
      explanation: z.string(),
    }),
  ),
});

/** PUT /api/attempts/{id}/answers/{questionId}: option indexes, or text for a short answer. */
export const answerValueSchema = z.union([z.array(z.number().int().min(0).max(9)).max(10), z.string().max(2000)]);
export const saveAnswerBodySchema = z.object({ value: answerValueSchema });
export const answerParamsSchema = idParamsSchema.extend({ questionId: idText });

export const questionResultSchema = z.object({
  questionId: z.number().int(),
  correct: z.boolean(),
  gradedBy: z.enum(["key", "ai"]),
  /** The AI's reasoning for a short answer it graded. */
  reasoning: z.string().nullable(),
  /** Only when the quiz shows answers now (after each attempt, or after passing): the key and the explanation. */
  key: z.object({ correct: z.array(z.number().int()), accepted: z.array(z.string()) }).nullable(),
  explanation: z.string().nullable(),
});

/** An attempt as its learner sees it. Before submit: questions and saved answers only. */
export const attemptSchema = z.object({
  id: z.number().int(),
  lessonId: z.number().int(),
  courseId: z.number().int(),
  version: z.number().int(),
  status: z.enum(["open", "submitted"]),
  questions: z.array(learnerQuestionSchema),
  answers: z.array(z.object({ questionId: z.number().int(), value: answerValueSchema })),
  /** Percent, 0-100; null before submit. */
  score: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  passMark: z.number().int(),
  attemptsUsed: z.number().int(),
  attemptsAllowed: z.number().int().nullable(),
  results: z.array(questionResultSchema).nullable(),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
});
export type Attempt = z.infer<typeof attemptSchema>;

export const certificateSchema = z.object({
  code: z.string(),
  learnerName: z.string(),
  courseTitle: z.string(),
  ownerName: z.string(),
  issuedAt: z.string(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificateSchema>;
export const certificateParamsSchema = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) });

/** GET /api/courses/{id}/analytics: the owner's and admins' numbers. */
export const courseAnalyticsSchema = z.object({
  learnersStarted: z.number().int(),
  learnersCompleted: z.number().int(),
  quizzes: z.array(
    z.object({
      lessonId: z.number().int(),
      title: z.string(),
      attempts: z.number().int(),
      /** Submitted attempts' mean score in percent (one decimal); null before any. */
      averageScore: z.number().nullable(),
      /** Percent of submitted attempts that passed (one decimal); null before any. */
      passRate: z.number().nullable(),
      mostMissed: z.object({ questionId: z.number().int(), prompt: z.string(), missed: z.number().int() }).nullable(),
    }),
  ),
});
export type CourseAnalytics = z.infer<typeof courseAnalyticsSchema>;

const params = idParamsSchema;

/** Quizzes: the owner (and admins) write questions and publish; learners take attempts. */
export const quizzesApi = {
  quiz: endpoint({ method: "GET", path: "/api/lessons/:id/quiz", access: "user", params, response: quizSchema }),
  addQuestion: endpoint({
    method: "POST",
    path: "/api/lessons/:id/questions",
    access: "user",
    params,
    body: questionBodySchema,
    response: questionSchema,
    status: 201,
  }),
  updateQuestion: endpoint({
    method: "PATCH",
    path: "/api/questions/:id",
    access: "user",
    params,
    body: updateQuestionBodySchema,
    response: questionSchema,
  }),
  removeQuestion: endpoint({ method: "DELETE", path: "/api/questions/:id", access: "user", params, response: z.null(), kind: "empty" }),
  moveQuestion: endpoint({
    method: "POST",
    path: "/api/questions/:id/move",
    access: "user",
    params,
    body: z.object({ direction: z.enum(["up", "down"]) }),
    response: z.array(questionSchema),
  }),
  generateQuestions: endpoint({
    method: "POST",
    path: "/api/lessons/:id/questions/generate",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    body: generateQuestionsBodySchema,
    response: z.array(questionSchema),
  }),
  publish: endpoint({
    method: "POST",
    path: "/api/lessons/:id/publish-quiz",
    access: "user",
    params,
    body: publishQuizBodySchema,
    response: quizSchema,
  }),
  /** The learner's open attempt, or a new one (within the attempts allowed). */
  startAttempt: endpoint({ method: "POST", path: "/api/lessons/:id/attempts", access: "user", params, response: attemptSchema }),
  /** The learner's attempts at this quiz, newest first. */
  attempts: endpoint({ method: "GET", path: "/api/lessons/:id/attempts", access: "user", params, response: z.array(attemptSchema) }),
  attempt: endpoint({ method: "GET", path: "/api/attempts/:id", access: "user", params, response: attemptSchema }),
  saveAnswer: endpoint({
    method: "PUT",
    path: "/api/attempts/:id/answers/:questionId",
    access: "user",
    params: answerParamsSchema,
    body: saveAnswerBodySchema,
    response: z.object({ questionId: z.number().int(), savedAt: z.string() }),
  }),
  submit: endpoint({ method: "POST", path: "/api/attempts/:id/submit", access: "user", params, response: attemptSchema }),
};

/** Certificates, completion and the owner's analytics. */
export const certificatesApi = {
  /** The learner's certificate of a completed course as a PDF; its code in the `x-certificate-code` header. */
  certificate: endpoint({ method: "GET", path: "/api/courses/:id/certificate", access: "user", params, kind: "file", response: z.null() }),
  /** Anyone, without an account: is this certificate genuine, and is it revoked. */
  verify: endpoint({
    ...certificateVerifyAddress,
    params: certificateParamsSchema,
    response: certificateSchema,
  }),
  /** The course's owner or an admin. */
  revoke: endpoint({
    method: "POST",
    path: "/api/certificates/:code/revoke",
    access: "user",
    params: certificateParamsSchema,
    response: certificateSchema,
  }),
  /** The certificates of a course (its owner and admins), newest first. */
  courseCertificates: endpoint({
    method: "GET",
    path: "/api/courses/:id/certificates",
    access: "user",
    params,
    response: z.array(certificateSchema),
  }),
  analytics: endpoint({ method: "GET", path: "/api/courses/:id/analytics", access: "user", params, response: courseAnalyticsSchema }),
  /** The analytics as CSV, formula-safe as the activity export. */
  analyticsExport: endpoint({
    method: "GET",
    path: "/api/courses/:id/analytics/export",
    access: "user",
    params,
    kind: "file",
    response: z.null(),
  }),
};

/** The analytics export's columns: one row per quiz (the course's numbers repeated on each). */
export const ANALYTICS_CSV_COLUMNS = [
  "Course",
  "Learners started",
  "Learners completed",
  "Quiz",
  "Attempts",
  "Average score (%)",
  "Pass rate (%)",
  "Most missed question",
  "Times missed",
] as const;

/** What a locked lesson says, with its opening day as the reader writes dates (the web) or as a calendar date (the API). */
export const lessonOpensText = (day: string) => `This lesson opens on ${day}. Come back then.`;
/** A lesson still locked by drip release answers 403 with this message and `opensAt`. */
export const lessonLockedMessage = (opensAt: string) => lessonOpensText(opensAt.slice(0, 10));
