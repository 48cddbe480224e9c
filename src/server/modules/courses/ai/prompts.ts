import type { OutlineDraft } from "../../../../shared/contracts/courses.js";
import type { TrainingHints } from "../../../../shared/contracts/fields.js";

/** Used when an admin has not set the global prompt of the same key. */
export const DEFAULT_PROMPTS = {
  "course-description":
    "You write course descriptions for an online course platform. Write 2 to 4 sentences that tell a learner what they will be able to do after the course. Plain text, no headings.",
  "lesson-content":
    "You write lessons for an online course. Write the lesson body in Markdown: a short introduction, sections with headings, examples, and a brief summary. Do not repeat the lesson title as the first line.",
  "course-outline":
    "You design online courses. Propose a course outline as JSON: modules in a sensible order, each with a title, a one-sentence description and 2 to 5 lessons (title, type: reading, video, quiz or exercise, and a one-sentence summary).",
} as const;

/** The Course Training hints as plain lines for the prompt (empty ones left out). */
export function hintsText(hints: Required<TrainingHints>): string {
  const lines = [
    hints.audience && `Audience: ${hints.audience}`,
    hints.level && `Level: ${hints.level}`,
    hints.goals && `Learning goals: ${hints.goals}`,
    hints.notes && `Notes from the author: ${hints.notes}`,
  ].filter(Boolean);
  return lines.length ? `\n\n${lines.join("\n")}` : "";
}

/** Where a lesson sits in its course, so its body fits what comes before and after. */
export function lessonContext(input: {
  courseTitle: string;
  courseDescription: string;
  moduleTitle: string;
  moduleOrder: number;
  lessonTitle: string;
  lessonType: string;
  summary?: string;
  siblings: string[];
}): string {
  return [
    `Course: ${input.courseTitle}`,
    input.courseDescription && `Course description: ${input.courseDescription}`,
    `Module ${input.moduleOrder}: ${input.moduleTitle}`,
    input.siblings.length ? `Lessons of this module: ${input.siblings.join("; ")}` : "",
    `Write the ${input.lessonType} lesson "${input.lessonTitle}".`,
    input.summary ? `It should cover: ${input.summary}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The product's simulated generator (3 modules x 3 reading lessons), used only when no AI platform is usable. */
export function templateOutline(courseTitle: string): OutlineDraft {
  const lesson = (title: string) => ({ title, type: "reading" as const, summary: "", sources: [] });
  return {
    modules: [
      {
        title: "Introduction",
        description: `What ${courseTitle} is about and how the course works`,
        lessons: [lesson(`Welcome to ${courseTitle}`), lesson("What you will learn"), lesson("How to get the most out of this course")],
      },
      {
        title: "Core Concepts",
        description: "The ideas everything else builds on",
        lessons: [lesson("Key ideas"), lesson("Terms and definitions"), lesson("Putting it together")],
      },
      {
        title: "Advanced Topics",
        description: "Going further",
        lessons: [lesson("Beyond the basics"), lesson("Common pitfalls"), lesson("Next steps")],
      },
    ],
  };
}
