import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Personality, PersonalityInput, PersonalityPatch } from "../../../shared/contracts/personalities.js";
import type { Db } from "../../db/client.js";
import { personalities } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { setCollections } from "../knowledge/collection-links.js";
import { assertUsableTools, type McpToolAccess } from "../tools/tools-service.js";

export type PersonalityRow = typeof personalities.$inferSelect;
const NOT_FOUND = "Personality not found";

/** A personality's collections (issue 30), a column of the query that reads it: one lookup of the link table's key. */
const collectionIdsColumn = sql<number[] | null>`(select array_agg(pc.collection_id order by pc.collection_id)
  from personality_collections pc where pc.personality_id = ${personalities.id})`;
const personalityColumns = { ...getTableColumns(personalities), collectionIds: collectionIdsColumn };

function toPersonality(row: PersonalityRow & { collectionIds: readonly number[] | null }): Personality {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tone: row.tone,
    instructions: row.instructions,
    temperature: Math.round(row.temperature * 100) / 100,
    maxTokens: row.maxTokens,
    platformSlug: row.platformSlug,
    model: row.model,
    collectionIds: (row.collectionIds ?? []).map(Number),
    tools: [...(row.tools ?? [])].sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Owner-only: someone else's personality and a missing one are the same 404. */
export async function findOwnPersonality(db: Db, userId: number, id: number): Promise<PersonalityRow & { collectionIds: number[] | null }> {
  const [row] = await db
    .select(personalityColumns)
    .from(personalities)
    .where(and(eq(personalities.id, id), eq(personalities.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
}

export async function listPersonalities(options: { db: Db; who: Who }): Promise<Personality[]> {
  const rows = await options.db
    .select(personalityColumns)
    .from(personalities)
    .where(eq(personalities.userId, options.who.id))
    .orderBy(desc(personalities.id))
    .limit(500);
  return rows.map(toPersonality);
}

export async function getPersonality(options: { db: Db; who: Who; id: number }): Promise<Personality> {
  return toPersonality(await findOwnPersonality(options.db, options.who.id, options.id));
}

export async function createPersonality(options: { db: Db; who: Who; input: PersonalityInput; mcp: McpToolAccess }): Promise<Personality> {
  const { input, who } = options;
  await assertUsableTools({ who, mcp: options.mcp, ids: input.tools });
  return options.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(personalities)
      .values({
        userId: options.who.id,
        name: input.name,
        description: input.description,
        tone: input.tone || "friendly",
        instructions: input.instructions,
        temperature: input.temperature,
        maxTokens: input.maxTokens,
        platformSlug: input.platformSlug || null,
        model: input.model || null,
        tools: input.tools,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    const link = { table: "personality_collections", key: "personality_id", id: row.id } as const;
    if (input.collectionIds.length) await setCollections(tx, link, who.id, input.collectionIds);
    return toPersonality({ ...row, collectionIds: input.collectionIds });
  });
}

export async function updatePersonality(options: {
  db: Db;
  who: Who;
  id: number;
  input: PersonalityPatch;
  mcp: McpToolAccess;
}): Promise<Personality> {
  const { input } = options;
  if (input.tools) await assertUsableTools({ who: options.who, mcp: options.mcp, ids: input.tools });
  const change: Partial<typeof personalities.$inferInsert> = { updatedAt: new Date() };
  for (const key of ["name", "description", "tone", "instructions", "temperature", "maxTokens"] as const) {
    if (input[key] !== undefined) Object.assign(change, { [key]: input[key] });
  }
  if (input.platformSlug !== undefined) change.platformSlug = input.platformSlug || null;
  if (input.model !== undefined) change.model = input.model || null;
  if (input.tools !== undefined) change.tools = input.tools;
  const { db, who, id } = options;
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(personalities)
      .set(change)
      .where(and(eq(personalities.id, id), eq(personalities.userId, who.id)))
      .returning({ id: personalities.id });
    if (row && input.collectionIds !== undefined) {
      await setCollections(tx, { table: "personality_collections", key: "personality_id", id }, who.id, input.collectionIds);
    }
    return row;
  });
  if (!updated) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toPersonality(await findOwnPersonality(db, who.id, id));
}

export async function deletePersonality(options: { db: Db; who: Who; id: number }): Promise<void> {
  const deleted = await options.db
    .delete(personalities)
    .where(and(eq(personalities.id, options.id), eq(personalities.userId, options.who.id)))
    .returning({ id: personalities.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", NOT_FOUND);
}
