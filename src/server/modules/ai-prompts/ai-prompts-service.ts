import { asc, eq, sql } from "drizzle-orm";
import { type AiPrompt, type AiPromptInput, type AiPromptPatch, PROMPT_KEY_TAKEN } from "../../../shared/contracts/ai-prompts.js";
import type { Db } from "../../db/client.js";
import { globalAiPrompts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/db-errors.js";
import type { Who } from "../../lib/who.js";

/** Well-known keys of the global AI prompts: each is a system prompt (listed in shared/contracts/ai-prompts.ts). */
export const PROMPT_KEYS = {
  chatSystem: "chat-system",
  courseOutline: "course-outline",
  lessonContent: "lesson-content",
  courseDescription: "course-description",
} as const;

const NOT_FOUND = "AI prompt not found";

/** The prompt an admin set under this key, or undefined (then none is sent). */
export async function findGlobalPrompt(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ prompt: globalAiPrompts.prompt }).from(globalAiPrompts).where(eq(globalAiPrompts.key, key)).limit(1);
  return promptText(row?.prompt);
}

/**
 * `findGlobalPrompt` as a subquery another read carries (a reply reads it with its chat, in one round trip:
 * issue 15); `promptText` turns what it read into the prompt.
 */
export const globalPromptColumn = (key: string) =>
  sql<string | null>`(select ${globalAiPrompts.prompt} from ${globalAiPrompts} where ${globalAiPrompts.key} = ${key} limit 1)`;

/** A stored prompt as sent: trimmed, and undefined when empty or missing. */
export function promptText(stored: string | null | undefined): string | undefined {
  const text = stored?.trim();
  return text ? text : undefined;
}

type PromptRow = typeof globalAiPrompts.$inferSelect;

function toPrompt(row: PromptRow): AiPrompt {
  return {
    id: row.id,
    key: row.key,
    description: row.description,
    prompt: row.prompt,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const keyTaken = () => new AppError("CONFLICT", PROMPT_KEY_TAKEN, { errors: { key: PROMPT_KEY_TAKEN } });

/** Every prompt, by key. Admin-written and few, so one list. */
export async function listPrompts(options: { db: Db; who: Who }): Promise<AiPrompt[]> {
  const rows = await options.db.select().from(globalAiPrompts).orderBy(asc(globalAiPrompts.key));
  return rows.map(toPrompt);
}

export async function createPrompt(options: { db: Db; who: Who; input: AiPromptInput }): Promise<AiPrompt> {
  const { input } = options;
  // The unique key decides, in the insert itself (no separate lookup that a racing create could pass).
  const [row] = await options.db
    .insert(globalAiPrompts)
    .values({ key: input.key, description: input.description, prompt: input.prompt })
    .onConflictDoNothing({ target: globalAiPrompts.key })
    .returning();
  if (!row) throw keyTaken();
  return toPrompt(row);
}

export async function updatePrompt(options: { db: Db; who: Who; id: number; input: AiPromptPatch }): Promise<AiPrompt> {
  const { db, id, input } = options;
  const change: Partial<typeof globalAiPrompts.$inferInsert> = { updatedAt: new Date() };
  if (input.key !== undefined) change.key = input.key;
  if (input.description !== undefined) change.description = input.description;
  if (input.prompt !== undefined) change.prompt = input.prompt;
  const [row] = await db
    .update(globalAiPrompts)
    .set(change)
    .where(eq(globalAiPrompts.id, id))
    .returning()
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? keyTaken() : error;
    });
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toPrompt(row);
}

export async function deletePrompt(options: { db: Db; who: Who; id: number }): Promise<void> {
  const deleted = await options.db.delete(globalAiPrompts).where(eq(globalAiPrompts.id, options.id)).returning({ id: globalAiPrompts.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", NOT_FOUND);
}
