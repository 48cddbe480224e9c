import { type SQL, sql } from "drizzle-orm";
import { embedTexts } from "../../../ai/embed.js";
import type { Db } from "../../../db/client.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { readEmbeddingConfig } from "../embedding-settings-service.js";
import type { RetrievedPassage } from "./passage.js";
import { withoutOverlap } from "./passage-context.js";
import { baselineOf, CONTROL_TEXTS, clearsFloor } from "./relevance-floor.js";
import { type VectorStore, vectorLiteral } from "./vector-store.js";

/**
 * Retrieval of a user's passages for a question (issue 30, decision 036): hybrid, full text (the `'simple'`
 * configuration the chat search uses) and vector similarity (pgvector, where it is and an embedding model is set),
 * each one query, fused by reciprocal rank, then taken in order within a token budget. Every query is scoped in SQL
 * to the caller's own pieces and to the files and collections asked for: another user's ids match nothing.
 */

export interface RetrievalDeps {
  db: Db;
  vectors: VectorStore;
  /** To embed the question with the model in use (and spend its tokens from the user's allowance). */
  platformDeps?: PlatformDeps;
  /**
   * The question's vector and the model it is from (`"slug/model"`), or null for full text only; `userId` is who pays
   * (`payerId`). Default: the embedding model the admin set, through the provider. Benches give their own. `baseline`:
   * the model's level for unrelated text for this question (`relevance-floor.ts`), when the floor is asked for.
   */
  embedQuery?: (query: string, userId: number) => Promise<EmbeddedQuery | null>;
}

/** A question's vector, the model it is from (`"slug/model"`) and, for the relevance floor, its unrelated baseline. */
export interface EmbeddedQuery {
  key: string;
  vector: number[];
  baseline?: number;
}

export interface RetrieveRequest {
  userId: number;
  query: string;
  /** Only these files and the files of these collections (either may be empty); neither given: the whole library. */
  fileIds?: number[];
  collectionIds?: number[];
  /**
   * Only these pieces (a course's sources, issue 31), and within the files and collections when those are given too; an
   * empty list matches nothing.
   */
  chunkIds?: number[];
  /** Whose allowance embedding the question spends (a lesson tutor's reader, not the files' owner); default `userId`. */
  payerId?: number;
  /** The passages' tokens added up stay within this. */
  budgetTokens: number;
  /** At most this many passages (8 by default). */
  limit?: number;
  /** Each kind's candidates before fusion (default: 3 × limit, at least 20). */
  candidates?: number;
  /**
   * Only passages that clear the relevance floor (decision 067: a lesson's sources), judged before the limit and the
   * budget, so one that does not clear it never takes another's place.
   */
  relevantOnly?: boolean;
}

/** Reciprocal rank fusion's constant (Cormack et al.: 60). */
export const RRF_K = 60;

/** Words too common to tell passages apart, left out of the any-word query (the all-words query keeps them). */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its of on or " +
    "our should so than that the their them then there these they this those to was we were what when where which who " +
    "whom why will with would you your about after before me my not no yes please tell explain"
  ).split(" "),
);

/** The question's distinct words (letters and digits, lower-cased), without the most common ones. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))].slice(0, 32);
}

type Row = {
  id: number | string;
  file_id: number | string;
  file_name: string;
  page: number | string | null;
  heading_path: string;
  content: string;
  tokens: number | string;
  /** The vector search's cosine distance (its rows only). */
  distance?: number | string;
};

const ids = (list: number[]) =>
  sql.join(
    list.map((id) => sql`${id}::int`),
    sql`, `,
  );

/** The files asked for, as a condition on `f` (the file row) and `c` (the piece), always with the owner. */
function scopeOf(request: RetrieveRequest): SQL {
  const owner = sql`f.user_id = ${request.userId}::int`;
  if (request.chunkIds !== undefined) {
    const { chunkIds, ...rest } = request;
    if (chunkIds.length === 0) return sql`false`;
    return sql`${scopeOf(rest)} and c.id = any(string_to_array(${chunkIds.join(",")}, ',')::int[])`;
  }
  if (request.fileIds === undefined && request.collectionIds === undefined) return owner;
  const files = request.fileIds ?? [];
  const collections = request.collectionIds ?? [];
  const parts: SQL[] = [];
  if (files.length > 0) parts.push(sql`f.id in (${ids(files)})`);
  if (collections.length > 0) parts.push(sql`f.collection_id in (${ids(collections)})`);
  if (parts.length === 0) return sql`false`;
  return sql`${owner} and (${sql.join(parts, sql` or `)})`;
}

function toPassage(row: Row, score: number): RetrievedPassage {
  return {
    chunkId: Number(row.id),
    fileId: Number(row.file_id),
    fileName: row.file_name,
    page: row.page === null ? null : Number(row.page),
    headingPath: row.heading_path,
    content: row.content,
    tokens: Number(row.tokens),
    score,
  };
}

const COLUMNS = sql`c.id, c.file_id, f.name as file_name, c.page, c.heading_path, c.content, c.tokens`;

/**
 * Full text: pieces with any of the question's words (less the commonest), those with every word (web-search
 * syntax) ranked first; one GIN lookup (the all-words query only ranks: its words are a superset of the any-word
 * one's, so everything it matches is matched already, and looking it up too cost a second index scan).
 */
async function fullText(db: Db, request: RetrieveRequest, k: number): Promise<Row[]> {
  const words = queryWords(request.query);
  if (words.length === 0 && !/[\p{L}\p{N}]/u.test(request.query)) return [];
  const all = sql`websearch_to_tsquery('simple', ${request.query})`;
  const any = words.length > 0 ? sql`to_tsquery('simple', ${words.join(" | ")})` : all;
  const rank = sql`2 * ts_rank(c.content_search, ${all}) + ts_rank(c.content_search, ${any})`;
  const from = sql`from knowledge_chunks c join knowledge_files f on f.id = c.file_id
    where c.user_id = ${request.userId}::int and ${scopeOf(request)}`;
  const pairs = pairQuery(words);
  if (!pairs) {
    const result = await db.execute(
      sql`select ${COLUMNS} ${from} and c.content_search @@ ${any} order by ${rank} desc, c.id limit ${k}::int`,
    );
    return result.rows as Row[];
  }
  // Pieces holding two of the words or more first: a GIN intersection, so a common word does not make every piece
  // that holds it a candidate to rank. Only when those are fewer than k (a question sharing one word with its
  // passage), the pieces holding any word; that scan is skipped otherwise (a one-time filter).
  const result = await db.execute(sql`
    with two as (
      select ${COLUMNS}, ${rank} as rank ${from} and c.content_search @@ to_tsquery('simple', ${pairs})
      order by rank desc, c.id limit ${k}::int
    ), one as (
      select ${COLUMNS}, ${rank} as rank ${from} and c.content_search @@ ${any}
        and (select count(*) from two) < ${k}::int and c.id not in (select id from two)
      order by rank desc, c.id limit ${k}::int
    )
    select * from (select *, 0 as tier from two union all select *, 1 as tier from one) found
    order by tier, rank desc, id limit ${k}::int`);
  return result.rows as Row[];
}

/** `(a & b) | (a & c) | ...` over the first 8 words, or null with fewer than two. */
function pairQuery(words: string[]): string | null {
  const some = words.slice(0, 8);
  if (some.length < 2) return null;
  const pairs: string[] = [];
  for (let i = 0; i < some.length; i++) for (let j = i + 1; j < some.length; j++) pairs.push(`(${some[i]} & ${some[j]})`);
  return pairs.join(" | ");
}

/**
 * The HNSW search's list of candidates (`hnsw.ef_search`): as many as the vector half gives to the fusion (k, already
 * 3 × the passages asked for), not pgvector's default of 40. The search is most of the vector half's cost on PGlite,
 * and grows with it: at 100,000 pieces of 256 dimensions 11.9 ms of CPU at 40, 6.7 ms at 20 (bench/retrieval,
 * decision 036), for fewer of the exact nearest among the k found.
 */
function efSearchFor(k: number): number {
  return Math.min(1000, Math.max(1, Math.round(k)));
}

/** Nearest pieces by cosine distance, through the HNSW index of the vector's size (iterative scan for the filters). */
async function nearest(db: Db, request: RetrieveRequest, k: number, key: string, vector: number[]): Promise<Row[]> {
  const dims = vector.length;
  if (!Number.isInteger(dims) || dims < 1) return [];
  const typed = sql.raw(`vector(${dims})`);
  const literal = vectorLiteral(vector);
  return db.transaction(async (tx) => {
    // For this transaction only, in one statement: the HNSW search keeps k candidates (pgvector's default is 40),
    // and (pgvector ≥ 0.8) the index keeps scanning until enough rows pass the owner and scope filters.
    await tx.execute(sql`select set_config('hnsw.ef_search', ${String(efSearchFor(k))}, true),
      set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
    const result = await tx.execute(sql`
      select * from (
        select ${COLUMNS}, (e.embedding::${typed}) <=> ${literal}::${typed} as distance
        from knowledge_embeddings e
          join knowledge_chunks c on c.id = e.chunk_id
          join knowledge_files f on f.id = c.file_id
        where e.user_id = ${request.userId}::int and e.model = ${key} and e.dims = ${dims}::int and ${scopeOf(request)}
        order by (e.embedding::${typed}) <=> ${literal}::${typed}
        limit ${k}::int
      ) s order by distance, id`);
    return result.rows as Row[];
  });
}

/** The control texts' vectors per model (`"slug/model"`), embedded once per process with the first call that needs them. */
const controlVectors = new Map<string, number[][]>();
const CONTROL_MODELS_KEPT = 8;

/**
 * The questions' vectors with the model in use, asked in one provider call (one hold of the user's allowance), or null
 * (none set, no pgvector). Questions known ahead (a course run's lessons) are embedded together this way, then each
 * search is given its own (`embedQuery`), so a search costs only its two queries. `baselines` (the relevance floor):
 * each question's level for unrelated text too, the control texts embedded in the same call the first time a model is
 * asked (a few dozen tokens, then remembered).
 */
export async function embedQueries(
  deps: RetrievalDeps,
  queries: string[],
  userId: number,
  options: { baselines?: boolean } = {},
): Promise<{ key: string; vectors: number[][]; baselines: number[] | null } | null> {
  if (!deps.platformDeps || queries.length === 0) return null;
  const config = await readEmbeddingConfig(deps.db, deps.platformDeps);
  if (!config) return null;
  const known = options.baselines ? controlVectors.get(config.key) : undefined;
  const controls = options.baselines && !known ? CONTROL_TEXTS : [];
  const { embeddings } = await embedTexts({
    access: config.access,
    modelId: config.modelId,
    texts: [...queries, ...controls],
    spend: { allowance: deps.platformDeps.allowance, userId },
    maxRetries: 1,
  });
  const vectors = embeddings.slice(0, queries.length);
  if (!options.baselines) return { key: config.key, vectors, baselines: null };
  const control = known ?? embeddings.slice(queries.length);
  if (!known) {
    if (controlVectors.size >= CONTROL_MODELS_KEPT) controlVectors.clear();
    controlVectors.set(config.key, control);
  }
  return { key: config.key, vectors, baselines: vectors.map((vector) => baselineOf(vector, control)) };
}

/** The question's vector with the model in use, or null (none set, no pgvector, or the provider failed). */
async function defaultEmbedQuery(deps: RetrievalDeps, query: string, userId: number, baselines: boolean): Promise<EmbeddedQuery | null> {
  const found = await embedQueries(deps, [query], userId, { baselines });
  const vector = found?.vectors[0];
  if (!found || !vector) return null;
  const baseline = found.baselines?.[0];
  return baseline === undefined ? { key: found.key, vector } : { key: found.key, vector, baseline };
}

/** A question as it is searched (and embedded): trimmed, at most 2,000 characters. */
export const searchedQuery = (query: string) => query.trim().slice(0, 2000);

/** Reciprocal rank fusion of ranked lists: a piece's score is Σ 1 / (60 + its rank in each list). */
export function fuse(lists: Row[][]): { row: Row; score: number }[] {
  const scored = new Map<number, { row: Row; score: number }>();
  for (const list of lists) {
    list.forEach((row, index) => {
      const id = Number(row.id);
      const entry = scored.get(id) ?? { row, score: 0 };
      entry.score += 1 / (RRF_K + index + 1);
      scored.set(id, entry);
    });
  }
  return [...scored.values()].sort((a, b) => b.score - a.score || Number(a.row.id) - Number(b.row.id));
}

/** A user's best passages for a question, within a token budget; never another user's. */
export async function retrievePassages(deps: RetrievalDeps, request: RetrieveRequest): Promise<RetrievedPassage[]> {
  const query = searchedQuery(request.query);
  if (!query || request.budgetTokens <= 0) return [];
  const limit = request.limit ?? 8;
  const k = request.candidates ?? Math.max(20, 3 * limit);
  const asked = { ...request, query };
  const floor = request.relevantOnly === true;
  const embedding = deps.vectors.available
    ? await (deps.embedQuery ?? ((q, u) => defaultEmbedQuery(deps, q, u, floor)))(query, request.payerId ?? request.userId).catch(
        () => null,
      )
    : null;
  const [byWords, byMeaning] = await Promise.all([
    fullText(deps.db, asked, k),
    embedding ? nearest(deps.db, asked, k, embedding.key, embedding.vector) : Promise.resolve([]),
  ]);
  const similarity = new Map(byMeaning.map((row) => [Number(row.id), 1 - Number(row.distance)]));
  const words = floor ? queryWords(query) : [];
  const passages: RetrievedPassage[] = [];
  let budget = request.budgetTokens;
  for (const { row, score } of fuse([byWords, byMeaning])) {
    if (floor && !clearsFloor({ words, text: row.content, similarity: similarity.get(Number(row.id)), baseline: embedding?.baseline })) {
      continue;
    }
    const passage = toPassage(row, score);
    if (passage.tokens > budget || passages.length >= limit) break;
    budget -= passage.tokens;
    passages.push(passage);
  }
  return passages;
}

/** Whether the user has anything to search: a piece of one of their own files (an empty library answers so). */
export async function hasSearchablePieces(deps: Pick<RetrievalDeps, "db">, userId: number): Promise<boolean> {
  const result = await deps.db.execute(sql`select exists(select 1 from knowledge_chunks where user_id = ${userId}::int) as some`);
  return (result.rows[0] as { some?: boolean } | undefined)?.some === true;
}

/**
 * A small document whole (it goes to the model entire): the user's file's pieces in order, each without the words
 * it repeats from the one before. Empty when the file is not the user's (or has no pieces).
 */
export async function readWholeFile(deps: Pick<RetrievalDeps, "db">, userId: number, fileId: number): Promise<RetrievedPassage[]> {
  const result = await deps.db.execute(sql`
    select ${COLUMNS}
    from knowledge_chunks c join knowledge_files f on f.id = c.file_id
    where c.user_id = ${userId}::int and f.user_id = ${userId}::int and f.id = ${fileId}::int
    order by c.chunk_index`);
  const rows = result.rows as Row[];
  const contents = withoutOverlap(rows.map((row) => row.content));
  return rows.map((row, i) => toPassage({ ...row, content: contents[i] ?? "" }, 0));
}
