import type { FastifyInstance } from "fastify";
import { quizzesApi as api } from "../../../shared/contracts/assessment.js";
import { route } from "../../lib/route.js";
import { getAttempt, listAttempts, saveAnswer, startAttempt, submitAttempt } from "./attempts-service.js";
import { generateQuestions } from "./question-drafts-service.js";
import { addQuestion, getQuiz, moveQuestion, publishQuiz, removeQuestion, updateQuestion } from "./questions-service.js";

/** Quizzes (issue 32): the owner's questions and publish; the learner's attempts, answers and submit. */
export async function quizRoutes(app: FastifyInstance) {
  const { db, platformDeps } = app.ctx;

  route(app, api.quiz, async (request) => getQuiz({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.addQuestion, async (request) => addQuestion({ db, who: request.user, lessonId: request.params.id, input: request.body }));
  route(app, api.updateQuestion, async (request) =>
    updateQuestion({ db, who: request.user, questionId: request.params.id, input: request.body }),
  );
  route(app, api.removeQuestion, async (request) => removeQuestion({ db, who: request.user, questionId: request.params.id }));
  route(app, api.moveQuestion, async (request) =>
    moveQuestion({ db, who: request.user, questionId: request.params.id, direction: request.body.direction }),
  );
  route(app, api.generateQuestions, async (request) =>
    generateQuestions({ db, platformDeps, who: request.user, lessonId: request.params.id, input: request.body, log: request.log }),
  );
  route(app, api.publish, async (request) => publishQuiz({ db, who: request.user, lessonId: request.params.id, input: request.body }));

  route(app, api.startAttempt, async (request) => startAttempt({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.attempts, async (request) => listAttempts({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.attempt, async (request) => getAttempt({ db, who: request.user, attemptId: request.params.id }));
  route(app, api.saveAnswer, async (request) =>
    saveAnswer({ db, who: request.user, attemptId: request.params.id, questionId: request.params.questionId, value: request.body.value }),
  );
  route(app, api.submit, async (request) =>
    submitAttempt({ db, platformDeps, who: request.user, attemptId: request.params.id, log: request.log }),
  );
}
