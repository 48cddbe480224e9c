import { createContext, useContext } from "react";
import type { z } from "zod";
import { COURSE_LEVELS, type LESSON_TYPES, type trainingHintsSchema } from "../../../shared/contracts/courses.js";

export type Hints = z.output<typeof trainingHintsSchema>;
export type CourseLevel = (typeof COURSE_LEVELS)[number];
export type LessonType = (typeof LESSON_TYPES)[number];

export const DEFAULT_HINTS: Hints = { audience: "", level: "all-levels", goals: "", notes: "" };

export const LEVEL_LABELS: Record<CourseLevel, string> = {
  beginner: "Beginner",
  intermediate: "Intermediate",
  advanced: "Advanced",
  "all-levels": "All levels",
};
export const LEVELS = COURSE_LEVELS;

export const LESSON_TYPE_LABELS: Record<LessonType, string> = { reading: "Reading", video: "Video", quiz: "Quiz", exercise: "Exercise" };

/** Course Training hints of the editor: held on screen only, sent with every AI request made there. */
export const TrainingHintsContext = createContext<Hints>(DEFAULT_HINTS);

export function useTrainingHints(): Hints {
  return useContext(TrainingHintsContext);
}
