import { createContext, useContext } from "react";
import type { LESSON_TYPES } from "../../../shared/contracts/courses.js";
import { COURSE_LEVELS, type Hints, NO_HINTS } from "../../../shared/contracts/fields.js";

export type { Hints };
export type CourseLevel = (typeof COURSE_LEVELS)[number];
export type LessonType = (typeof LESSON_TYPES)[number];

export const LEVEL_LABELS: Record<CourseLevel, string> = {
  beginner: "Beginner",
  intermediate: "Intermediate",
  advanced: "Advanced",
  "all-levels": "All levels",
};
export const LEVELS = COURSE_LEVELS;

export const LESSON_TYPE_LABELS: Record<LessonType, string> = { reading: "Reading", video: "Video", quiz: "Quiz", exercise: "Exercise" };

/** Course Training hints of the editor: held on screen only, sent with every AI request made there. */
export const TrainingHintsContext = createContext<Hints>(NO_HINTS);

export function useTrainingHints(): Hints {
  return useContext(TrainingHintsContext);
}
