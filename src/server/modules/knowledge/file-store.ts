import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.js";
import { letOthersIn } from "../../lib/gentle-statements.js";

/** Where a stored file's bytes are (the file row's `storage` and `storageKey`). */
export interface StoredFileRef {
  id: number;
  storage: string;
  storageKey: string | null;
}

/**
 * A library file's bytes (issue 30): in PostgreSQL by default (decision 003), in an S3-compatible object store when
 * `S3_*` is set. `put` runs before the file's row exists, under the id the row will take (decision 074), never inside
 * a transaction: the row is stored after it, in a short transaction, so a file never exists without its bytes.
 * `remove` is called after the row is gone (or when the row could not be stored).
 */
export interface FileStore {
  readonly kind: "db" | "s3";
  put(db: DbOrTx, file: { id: number; userId: number }, bytes: Uint8Array): Promise<{ storage: "db" | "s3"; storageKey: string | null }>;
  /** The whole file (ingestion, a reply's attached file): read as `stream` reads it. */
  read(file: StoredFileRef): Promise<Uint8Array>;
  /** The bytes a piece at a time (a download): never the whole file in memory, nor in one statement. */
  stream(file: StoredFileRef): AsyncIterable<Uint8Array>;
  remove(files: StoredFileRef[]): Promise<void>;
}

/**
 * Bytes read from the database per statement (decision 070). Read as base64 text, not as `bytea`: on PGlite a `bytea`
 * answer comes as hex that its JavaScript parses byte by byte, about 70 ms a MiB (a 20 MB file held the thread 3.2 s
 * in one statement), where the same MiB as base64 takes about 5 ms, decoded natively by `Buffer`.
 */
export const FILE_READ_SLICE = 1024 * 1024;

/**
 * The most bytes one row of `knowledge_file_bytes` holds, so one statement writes at most this (decision 074); sent as
 * base64 and decoded by the database, for the same reason reads are. A quarter of a MiB: on PGlite writing a MiB took
 * 40 to 75 ms a statement (its pieces stored, logged and indexed), longer than another request should wait.
 */
export const FILE_PART_BYTES = 256 * 1024;

/** Parts without a file row are left alone this long: a row is stored within seconds of its last part. */
export const LOOSE_PARTS_AFTER = "1 hour";

/** All the pieces in one buffer. */
export async function readWhole(pieces: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const piece of pieces) parts.push(piece);
  const whole = Buffer.concat(parts);
  return new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength);
}

/** The database's next file id, taken before the file's parts are written under it (its row is stored last). */
export async function reserveFileId(db: DbOrTx): Promise<number> {
  const answer = await db.execute(sql`select nextval(pg_get_serial_sequence('knowledge_files', 'id'))::int as id`);
  const row = answer.rows[0] as { id: number | string } | undefined;
  if (!row) throw new Error("no file id was given");
  return Number(row.id);
}

/**
 * Inside the transaction that stores the file's row: its parts are all there (as many as its size makes, adding up to
 * it), locked against the sweep and stamped as written now, so that a sweep that began before this commits cannot take
 * them. A part missing (swept, or never written) fails the upload rather than store a file without its bytes.
 */
export async function sealParts(tx: DbOrTx, file: { id: number; byteSize: number }): Promise<void> {
  const answer = await tx.execute(sql`
    update knowledge_file_bytes set written_at = now() where file_id = ${file.id}
    returning part, octet_length(data)::bigint as bytes`);
  const rows = answer.rows as { part: number; bytes: string | number }[];
  const expected = Math.max(1, Math.ceil(file.byteSize / FILE_PART_BYTES));
  const total = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
  if (rows.length !== expected || total !== file.byteSize) {
    throw new Error(`file ${file.id} has ${rows.length} of ${expected} parts, ${total} of ${file.byteSize} bytes`);
  }
}

const idList = (ids: readonly number[]) => sql`any(string_to_array(${ids.join(",")}, ',')::int[])`;

/**
 * Deletes parts one a statement, a turn of the event loop before each, while `which` names one (at most `limit`
 * statements, so a sweep never runs forever). Returns how many went.
 */
async function deletePartsOneByOne(db: Db, which: ReturnType<typeof sql>, limit = Number.POSITIVE_INFINITY): Promise<number> {
  let deleted = 0;
  while (deleted < limit) {
    await letOthersIn();
    const answer = await db.execute(sql`
      delete from knowledge_file_bytes where (file_id, part) in (
        select file_id, part from knowledge_file_bytes b where ${which} limit 1 for update skip locked)
      returning file_id`);
    if (answer.rows.length === 0) return deleted;
    deleted += answer.rows.length;
  }
  return deleted;
}

/**
 * Housekeeping (with the unsent files' sweep): parts whose file row does not exist, written more than
 * LOOSE_PARTS_AFTER ago, are deleted, a part a statement: an upload the process never finished (a kill -9, a crash),
 * a row deleted before its parts were (a user's whole account, a collection, a delete cut short). Returns how many.
 */
export function sweepLooseParts(db: Db, olderThan = LOOSE_PARTS_AFTER): Promise<number> {
  return deletePartsOneByOne(
    db,
    sql`b.written_at < now() - ${olderThan}::interval and not exists (select 1 from knowledge_files f where f.id = b.file_id)`,
  );
}

/** The bytes in the database: rows of `knowledge_file_bytes`, a part each, written and read a statement at a time. */
export function databaseFileStore(db: Db): FileStore {
  // A slice a statement, a turn of the event loop before each: a part whole, or a slice of a larger one (a file stored
  // before parts is one part of any size). The bytes of a file never change (a new file is a new row), so slices read
  // apart make the same file; a file deleted meanwhile ends the read with an error.
  async function* stream(file: StoredFileRef): AsyncGenerator<Uint8Array> {
    let part = 0;
    let offset = 0;
    for (;;) {
      await letOthersIn();
      const answer = await db.execute(sql`
        select encode(substring(data from ${offset + 1}::int for ${FILE_READ_SLICE}::int), 'base64') as slice,
          octet_length(data)::bigint as size,
          (select max(part) from knowledge_file_bytes where file_id = ${file.id}) as last
        from knowledge_file_bytes where file_id = ${file.id} and part = ${part}`);
      const row = answer.rows[0] as { slice: string; size: string | number; last: number | string } | undefined;
      if (!row) throw new Error(`file ${file.id} has no bytes (part ${part})`);
      const slice = Buffer.from(row.slice, "base64");
      if (slice.byteLength > 0) yield new Uint8Array(slice.buffer, slice.byteOffset, slice.byteLength);
      offset += slice.byteLength;
      if (offset < Number(row.size) && slice.byteLength > 0) continue;
      if (part >= Number(row.last)) return;
      part += 1;
      offset = 0;
    }
  }
  return {
    kind: "db",
    async put(into, file, bytes) {
      // A part a statement, each committed on its own, a turn of the event loop before each; an empty file is one
      // empty part, so every stored file has a part 0.
      const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let part = 0, at = 0; part === 0 || at < whole.byteLength; part += 1, at += FILE_PART_BYTES) {
        await letOthersIn();
        const piece = whole.subarray(at, at + FILE_PART_BYTES).toString("base64");
        await into.execute(
          sql`insert into knowledge_file_bytes (file_id, part, data) values (${file.id}, ${part}, decode(${piece}, 'base64'))`,
        );
      }
      return { storage: "db", storageKey: null };
    },
    read: (file) => readWhole(stream(file)),
    stream,
    async remove(files) {
      // After the rows (or instead of a row that was not stored): their parts, one a statement.
      const ids = files.filter((file) => file.storage === "db").map((file) => file.id);
      if (ids.length > 0) await deletePartsOneByOne(db, sql`b.file_id = ${idList(ids)}`);
    },
  };
}
