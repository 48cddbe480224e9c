import { eq, sql } from "drizzle-orm";
import {
  EMBEDDINGS_UNKNOWN_PLATFORM,
  type EmbeddingSettings,
  type EmbeddingSettingsInput,
  embeddingsNotOffered,
  type KnowledgeStatus,
} from "../../../shared/contracts/embedding-settings.js";
import { offersEmbeddings } from "../../ai/embed.js";
import type { ProviderAccess } from "../../ai/language-model.js";
import type { Db } from "../../db/client.js";
import { embeddingSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { findPlatformRow } from "../ai-platforms/ai-platforms-service.js";
import { accessFor, envKeyOf, type PlatformDeps, type PlatformRow } from "../ai-platforms/platform-view.js";
import { wakeIngestion } from "./ingestion/wake.js";
import type { VectorStore } from "./retrieval/vector-store.js";

/** The embedding model in use: the platform to ask, the model, and the name its vectors are stored under. */
export interface EmbeddingConfig {
  access: ProviderAccess;
  modelId: string;
  /** "slug/model": `knowledge_files.embedding_model` and `knowledge_embeddings.model`. */
  key: string;
  platformName: string;
}

/** The admin's choice as stored (one row, id 1; none when there is no row). */
async function readStored(db: Db): Promise<{ platformSlug: string | null; model: string | null }> {
  const [row] = await db
    .select({ platformSlug: embeddingSettings.platformSlug, model: embeddingSettings.model })
    .from(embeddingSettings)
    .where(eq(embeddingSettings.id, 1));
  return row ?? { platformSlug: null, model: null };
}

/** Can answer an embeddings request: on, and a key (or a keyless OpenAI-compatible server at an address). */
function canEmbed(row: PlatformRow, deps: PlatformDeps): boolean {
  if (row.status !== "active" || !offersEmbeddings(row.kind)) return false;
  return !!row.apiKeyEncrypted || !!envKeyOf(row, deps) || (row.kind === "openai-compatible" && !!row.baseUrl);
}

/**
 * The embedding model to use now, or null (none chosen, or its platform removed, turned off or without a key):
 * then every search is full text only and files are read without vectors.
 */
export async function readEmbeddingConfig(db: Db, deps: PlatformDeps): Promise<EmbeddingConfig | null> {
  const stored = await readStored(db);
  if (!stored.platformSlug || !stored.model) return null;
  const row = await findPlatformRow(db, { slug: stored.platformSlug });
  if (!row || !canEmbed(row, deps)) return null;
  return { access: accessFor(row, deps), modelId: stored.model, key: `${row.slug}/${stored.model}`, platformName: row.name };
}

async function reindexProgress(db: Db, key: string | null): Promise<{ done: number; total: number }> {
  if (!key) return { done: 0, total: 0 };
  // Files read into pieces (images have none), and those whose vectors come from the model now set.
  const result = await db.execute(sql`
    select count(*)::int as total, count(*) filter (where embedding_model = ${key})::int as done
    from knowledge_files where kind <> 'image' and progress_total > 0`);
  const row = result.rows[0] as { total: number | string; done: number | string } | undefined;
  return { done: Number(row?.done ?? 0), total: Number(row?.total ?? 0) };
}

type AdminOptions = { db: Db; who: Who; deps: PlatformDeps; vectors: VectorStore };

/** GET /api/admin/embedding-settings. */
export async function getEmbeddingSettings({ db, vectors }: AdminOptions): Promise<EmbeddingSettings> {
  const stored = await readStored(db);
  const key = stored.platformSlug && stored.model ? `${stored.platformSlug}/${stored.model}` : null;
  return { ...stored, vectorAvailable: vectors.available, reindex: await reindexProgress(db, key) };
}

/**
 * PUT /api/admin/embedding-settings: a platform that offers embeddings and a model, or none. A new model wakes the
 * ingestion workers, which re-embed every file in the background (each stays ready meanwhile).
 */
export async function updateEmbeddingSettings(options: AdminOptions & { input: EmbeddingSettingsInput }): Promise<EmbeddingSettings> {
  const { db, input } = options;
  const platformSlug = input.platformSlug ?? null;
  const model = input.model ?? null;
  if (platformSlug) {
    const row = await findPlatformRow(db, { slug: platformSlug });
    if (!row) throw new AppError("BAD_REQUEST", EMBEDDINGS_UNKNOWN_PLATFORM, { errors: { platformSlug: EMBEDDINGS_UNKNOWN_PLATFORM } });
    if (!offersEmbeddings(row.kind)) {
      const message = embeddingsNotOffered(row.name);
      throw new AppError("BAD_REQUEST", message, { errors: { platformSlug: message } });
    }
  }
  await db
    .insert(embeddingSettings)
    .values({ id: 1, platformSlug, model, updatedAt: new Date() })
    .onConflictDoUpdate({ target: embeddingSettings.id, set: { platformSlug, model, updatedAt: new Date() } });
  wakeIngestion();
  return getEmbeddingSettings(options);
}

/** GET /api/knowledge/status: whether searches use meaning (vectors) or full text only, for the library's note. */
export async function getKnowledgeStatus(options: { db: Db; deps: PlatformDeps; vectors: VectorStore }): Promise<KnowledgeStatus> {
  if (!options.vectors.available) return { semantic: false };
  return { semantic: (await readEmbeddingConfig(options.db, options.deps)) !== null };
}
