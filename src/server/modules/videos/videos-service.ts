import { asc, eq, sql } from "drizzle-orm";
import { type AdminVideo, VIDEO_LIMITS, VIDEO_MESSAGES, type VideoInput, type VideoPatch } from "../../../shared/contracts/admin-videos.js";
import { toEmbedUrl } from "../../../shared/embed-url.js";
import type { Db, Tx } from "../../db/client.js";
import { gettingStartedVideos as videos } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";

type VideoRow = typeof videos.$inferSelect;
type Options = { db: Db; who: Who; extraEmbedHosts: readonly string[] };

const NOT_FOUND = "Video not found";
const CHANGED = "The list of videos has changed. Please reload the page and try again.";
/** Any constant: every write to the video list takes this transaction lock first, so writes never interleave. */
const VIDEO_LIST_LOCK = 727_010;

function toVideo(row: VideoRow, extraEmbedHosts: readonly string[]): AdminVideo {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    embedUrl: row.embedUrl,
    order: row.order,
    isActive: row.isActive,
    playerUrl: toEmbedUrl(row.embedUrl, extraEmbedHosts),
  };
}

/** Only https players of the allowed hosts (the dashboard's rule): anything else never reaches the table. */
function checkEmbedUrl(raw: string, extraEmbedHosts: readonly string[]): string {
  if (!toEmbedUrl(raw, extraEmbedHosts)) {
    throw new AppError("BAD_REQUEST", VIDEO_MESSAGES.embedHost, { errors: { embedUrl: VIDEO_MESSAGES.embedHost } });
  }
  return raw;
}

const orNull = (text: string | null | undefined) => (text ? text : null);

/**
 * The list in its current order, every row locked until the transaction ends. The advisory lock also
 * serialises inserts (which row locks cannot see), so a create, a delete and a reorder never interleave.
 */
async function lockList(tx: Tx): Promise<{ id: number; order: number }[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(${VIDEO_LIST_LOCK})`);
  return tx.select({ id: videos.id, order: videos.order }).from(videos).orderBy(asc(videos.order), asc(videos.id)).for("update");
}

/** Orders 1..n in the sequence given; only rows whose order changes are written, in one statement. */
async function renumber(tx: Tx, current: { id: number; order: number }[], sequence: number[]): Promise<void> {
  const was = new Map(current.map((v) => [v.id, v.order]));
  const ids: number[] = [];
  const orders: number[] = [];
  sequence.forEach((id, index) => {
    if (was.get(id) !== index + 1) {
      ids.push(id);
      orders.push(index + 1);
    }
  });
  if (ids.length === 0) return;
  await tx.execute(sql`
    update ${videos} set "order" = moved.ord, updated_at = now()
    from unnest(${`{${ids.join(",")}}`}::int[], ${`{${orders.join(",")}}`}::int[]) as moved(id, ord)
    where ${videos.id} = moved.id`);
}

/** `sequence` with `id` taken out and put back at `position` (1-based, clamped to the list). */
function placeAt(sequence: number[], id: number, position: number): number[] {
  const rest = sequence.filter((other) => other !== id);
  rest.splice(Math.min(Math.max(position, 1), rest.length + 1) - 1, 0, id);
  return rest;
}

async function readAll(db: Db | Tx, extraEmbedHosts: readonly string[]): Promise<AdminVideo[]> {
  const rows = await db.select().from(videos).orderBy(asc(videos.order), asc(videos.id));
  return rows.map((row) => toVideo(row, extraEmbedHosts));
}

/** Every video (active or not), top first. */
export async function listVideos(options: Options): Promise<AdminVideo[]> {
  return readAll(options.db, options.extraEmbedHosts);
}

/** Adds a video at `order` (the others move down), or last without one; orders stay 1..n. */
export async function createVideo(options: Options & { input: VideoInput }): Promise<AdminVideo> {
  const { input, extraEmbedHosts } = options;
  const embedUrl = checkEmbedUrl(input.embedUrl, extraEmbedHosts);
  return options.db.transaction(async (tx) => {
    const current = await lockList(tx);
    if (current.length >= VIDEO_LIMITS.videos) {
      throw new AppError("CONFLICT", `There can be at most ${VIDEO_LIMITS.videos} videos. Delete one first.`);
    }
    const position = Math.min(input.order ?? current.length + 1, current.length + 1);
    const [row] = await tx
      .insert(videos)
      .values({
        title: input.title,
        subtitle: orNull(input.subtitle),
        description: orNull(input.description),
        embedUrl,
        order: position,
        isActive: input.isActive,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await renumber(
      tx,
      [...current, { id: row.id, order: position }],
      placeAt(
        current.map((v) => v.id),
        row.id,
        position,
      ),
    );
    return toVideo({ ...row, order: position }, extraEmbedHosts);
  });
}

/** Changes what was sent; a new `order` moves the video there (the others close up around it). */
export async function updateVideo(options: Options & { id: number; input: VideoPatch }): Promise<AdminVideo> {
  const { id, input, extraEmbedHosts } = options;
  const change: Partial<typeof videos.$inferInsert> = {};
  if (input.title !== undefined) change.title = input.title;
  if (input.subtitle !== undefined) change.subtitle = orNull(input.subtitle);
  if (input.description !== undefined) change.description = orNull(input.description);
  if (input.embedUrl !== undefined) change.embedUrl = checkEmbedUrl(input.embedUrl, extraEmbedHosts);
  if (input.isActive !== undefined) change.isActive = input.isActive;
  return options.db.transaction(async (tx) => {
    const current = await lockList(tx);
    if (!current.some((v) => v.id === id)) throw new AppError("NOT_FOUND", NOT_FOUND);
    if (input.order !== undefined) {
      await renumber(
        tx,
        current,
        placeAt(
          current.map((v) => v.id),
          id,
          input.order,
        ),
      );
    }
    const [row] =
      Object.keys(change).length > 0
        ? await tx
            .update(videos)
            .set({ ...change, updatedAt: new Date() })
            .where(eq(videos.id, id))
            .returning()
        : await tx.select().from(videos).where(eq(videos.id, id));
    if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
    return toVideo(row, extraEmbedHosts);
  });
}

/** Deletes a video; the ones below it move up, so orders stay 1..n. */
export async function deleteVideo(options: Options & { id: number }): Promise<void> {
  const { id } = options;
  await options.db.transaction(async (tx) => {
    const current = await lockList(tx);
    if (!current.some((v) => v.id === id)) throw new AppError("NOT_FOUND", NOT_FOUND);
    await tx.delete(videos).where(eq(videos.id, id));
    const rest = current.filter((v) => v.id !== id);
    await renumber(
      tx,
      rest,
      rest.map((v) => v.id),
    );
  });
}

/**
 * The whole new sequence, top first, in one transaction with every row locked: it must name exactly the videos
 * that exist (none missing, none extra; duplicates are refused by the contract), else nothing changes.
 */
export async function reorderVideos(options: Options & { videoIds: number[] }): Promise<AdminVideo[]> {
  const { videoIds, extraEmbedHosts } = options;
  return options.db.transaction(async (tx) => {
    const current = await lockList(tx);
    const existing = new Set(current.map((v) => v.id));
    const exact =
      videoIds.length === existing.size && new Set(videoIds).size === videoIds.length && videoIds.every((id) => existing.has(id));
    if (!exact) throw new AppError("BAD_REQUEST", CHANGED, { errors: { videoIds: VIDEO_MESSAGES.videoIds } });
    await renumber(tx, current, videoIds);
    return readAll(tx, extraEmbedHosts);
  });
}
