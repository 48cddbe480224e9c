import { sql } from "drizzle-orm";
import { FILE_BYTES_CEILING, FILE_LIMIT_MESSAGES, type StorageUsage } from "../../../shared/contracts/knowledge.js";
import type { DbOrTx, Tx } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";

/** A user's plan limits for the library (null: unlimited), and whether Early Access would give a free user more. */
export type FileLimits = {
  storageBytes: number | null;
  maxFiles: number | null;
  maxFileBytes: number | null;
  /** Per limit: a free user for whom Early Access has more room (the refusal then says so). */
  upgrade: { storage: boolean; files: boolean; fileBytes: boolean };
};

type LimitsRow = {
  role: "user" | "admin";
  plan_type: "free" | "earlyAccess";
  storage_bytes: string | number | null;
  max_files: number | null;
  max_file_bytes: string | number | null;
  ea_storage_bytes: string | number | null;
  ea_max_files: number | null;
  ea_max_file_bytes: string | number | null;
};

const num = (value: string | number | null) => (value === null ? null : Number(value));
/** Early Access beats the free plan on a limit when it is unlimited there, or larger. */
const beats = (earlyAccess: number | null, free: number | null) => free !== null && (earlyAccess === null || earlyAccess > free);

/**
 * The user's limits, read from the database each time (their plan and the admin's allowances), as the token
 * allowances are (decision 016): an admin is unlimited, a plan without a row too.
 */
export async function readFileLimits(db: DbOrTx, userId: number): Promise<FileLimits | null> {
  const result = await db.execute<LimitsRow>(sql`
    select u.role, u.plan_type,
           p.storage_bytes, p.max_files, p.max_file_bytes,
           ea.storage_bytes as ea_storage_bytes, ea.max_files as ea_max_files, ea.max_file_bytes as ea_max_file_bytes
    from users u
    left join plan_allowances p on p.plan_type = u.plan_type
    left join plan_allowances ea on ea.plan_type = 'earlyAccess'
    where u.id = ${userId}`);
  const row = result.rows[0];
  if (!row) return null;
  if (row.role === "admin") {
    return { storageBytes: null, maxFiles: null, maxFileBytes: null, upgrade: { storage: false, files: false, fileBytes: false } };
  }
  const limits = { storageBytes: num(row.storage_bytes), maxFiles: row.max_files, maxFileBytes: num(row.max_file_bytes) };
  const free = row.plan_type === "free";
  return {
    ...limits,
    upgrade: {
      storage: free && beats(num(row.ea_storage_bytes), limits.storageBytes),
      files: free && beats(row.ea_max_files, limits.maxFiles),
      fileBytes: free && beats(num(row.ea_max_file_bytes), limits.maxFileBytes),
    },
  };
}

/** The most bytes one file of this user may have: the plan's largest file, never above the server's ceiling. */
export function fileByteCap(limits: FileLimits | null): number {
  const plan = limits?.maxFileBytes ?? null;
  return plan === null ? FILE_BYTES_CEILING : Math.min(plan, FILE_BYTES_CEILING);
}

/** The 413 for a file over the cap (the plan's words when the plan set it, the server's otherwise). */
export function tooLargeError(limits: FileLimits | null): AppError {
  const plan = limits?.maxFileBytes ?? null;
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    plan !== null && plan <= FILE_BYTES_CEILING
      ? FILE_LIMIT_MESSAGES.tooLarge(plan, limits?.upgrade.fileBytes ?? false)
      : FILE_LIMIT_MESSAGES.tooLargeForServer(),
  );
}

/** One lock per user for everything that adds to their library (files, collections), held to the transaction's end. */
const LIBRARY_LOCK = 30_001;
export async function lockLibrary(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LIBRARY_LOCK}, ${userId})`);
}

/** What the user's files hold now: their number and bytes (every file, in a collection or attached to a message). */
export async function libraryTotals(db: DbOrTx, userId: number): Promise<{ files: number; bytes: number }> {
  const result = await db.execute<{ files: number; bytes: string | number }>(
    sql`select count(*)::int as files, coalesce(sum(byte_size), 0)::bigint as bytes from knowledge_files where user_id = ${userId}`,
  );
  const row = result.rows[0];
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Inside the transaction that stores an upload's row, after `lockLibrary`: the limits read again (an admin may have
 * changed them while the bytes came in) and the totals counted, so parallel uploads of one user are checked one after
 * another and never overshoot. Also before the bytes are written, outside any transaction, so that a file that cannot
 * fit is refused before it is stored.
 */
export async function assertRoomFor(tx: DbOrTx, userId: number, size: number): Promise<void> {
  const limits = await readFileLimits(tx, userId);
  if (!limits) throw new AppError("UNAUTHORIZED", "You need to sign in to do that.");
  if (size > fileByteCap(limits)) throw tooLargeError(limits);
  const totals = await libraryTotals(tx, userId);
  if (limits.maxFiles !== null && totals.files + 1 > limits.maxFiles) {
    throw new AppError("CONFLICT", FILE_LIMIT_MESSAGES.tooMany(limits.maxFiles, limits.upgrade.files));
  }
  if (limits.storageBytes !== null && totals.bytes + size > limits.storageBytes) {
    throw new AppError("CONFLICT", FILE_LIMIT_MESSAGES.storageFull(limits.storageBytes, totals.bytes, size, limits.upgrade.storage));
  }
}

/** The meter: what the library holds and the plan's limits. */
export async function storageUsage(db: DbOrTx, userId: number): Promise<StorageUsage> {
  const [limits, totals] = await Promise.all([readFileLimits(db, userId), libraryTotals(db, userId)]);
  return {
    usedBytes: totals.bytes,
    files: totals.files,
    storageBytes: limits?.storageBytes ?? null,
    maxFiles: limits?.maxFiles ?? null,
    maxFileBytes: limits?.maxFileBytes ?? null,
  };
}
