import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { globalAiPrompts } from "../../db/schema/index.js";

/** Well-known keys of the global AI prompts (spec 002): each is a system prompt. */
export const PROMPT_KEYS = {
  chatSystem: "chat-system",
  courseOutline: "course-outline",
  lessonContent: "lesson-content",
  courseDescription: "course-description",
} as const;

/** The prompt an admin set under this key, or undefined (then none is sent). */
export async function findGlobalPrompt(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ prompt: globalAiPrompts.prompt }).from(globalAiPrompts).where(eq(globalAiPrompts.key, key)).limit(1);
  const text = row?.prompt.trim();
  return text ? text : undefined;
}
