import type { ComponentType } from "react";
import type { Lesson } from "../../../shared/contracts/courses.js";

/**
 * What a quiz lesson's page shows in place of a reading lesson's text: the quizzes feature's `QuizLesson`, handed to
 * the lesson page by the route table (app/routes.tsx), since a feature never imports another (decision 040).
 */
export type QuizView = ComponentType<{ lesson: Lesson; canEdit: boolean }>;
