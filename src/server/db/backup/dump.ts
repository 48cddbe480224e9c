import { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader, controlLine } from "./format.js";
import type { SqlSession } from "./sessions.js";

/** A page of rows: at most this many, and about this much stored data (a larger row comes alone). */
const PAGE_ROWS = 1_000;
const PAGE_BYTES = 4 * 1024 * 1024;

export interface TableShape {
  name: string;
  /** The columns a row is written with: every column but the generated ones, in the table's order. */
  columns: string[];
  /** The primary key's columns and their types (every table of the app has one). */
  key: { name: string; type: string }[];
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The public schema's tables, by name, with their columns and primary keys. */
export async function tablesOf(session: SqlSession): Promise<TableShape[]> {
  const rows = await session.query<{ name: string; columns: string[]; key: { name: string; type: string }[] | null }>(`
    select c.relname as name,
      (select array_agg(a.attname::text order by a.attnum) from pg_attribute a
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns,
      (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
          order by array_position(i.indkey::int2[], a.attnum))
        from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = c.oid and i.indisprimary) as key
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    order by c.relname`);
  return rows.map((row) => {
    if (!row.key) throw new Error(`Table ${row.name} has no primary key: it cannot be read in pages.`);
    return { name: row.name, columns: row.columns, key: row.key };
  });
}

/** The applied migrations: how many, and the last one's time. */
export async function appliedMigrations(session: SqlSession): Promise<{ count: number; last: number }> {
  const [row] = await session.query<{ count: number; last: string | null }>(
    "select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations",
  );
  return { count: row?.count ?? 0, last: Number(row?.last ?? 0) };
}

/**
 * The backup's lines (format.ts), read inside one read-only repeatable-read transaction, so the backup is the
 * database at one moment however long it takes. Each table is read in pages in its primary key's order: first the
 * page's keys and sizes, then its rows, so a page holds about PAGE_BYTES of data however large its rows (files).
 */
export async function* dumpLines(session: SqlSession, options: { appSecret?: string } = {}): AsyncGenerator<string> {
  await session.query("begin isolation level repeatable read read only");
  let done = false;
  try {
    const migrations = await appliedMigrations(session);
    const tables = await tablesOf(session);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      migrations: migrations.count,
      lastMigration: migrations.last,
      createdAt: new Date().toISOString(),
      tables: tables.map((table) => table.name),
      ...(options.appSecret ? { appSecret: options.appSecret } : {}),
    };
    yield controlLine([BACKUP_FORMAT, header]);
    let total = 0;
    for (const table of tables) {
      yield controlLine(["table", table.name, table.columns]);
      let count = 0;
      for await (const line of tableRows(session, table)) {
        count += 1;
        yield line;
      }
      yield controlLine(["rows", table.name, count]);
      total += count;
    }
    for (const sequence of await sequencesOf(session)) {
      const [state] = await session.query<{ last: string; called: boolean }>(
        `select last_value::text as last, is_called as called from ${sequence.qualified}`,
      );
      if (state) yield controlLine(["sequence", sequence.name, sequence.table, sequence.column, state.last, state.called]);
    }
    yield controlLine(["end", { tables: tables.length, rows: total }]);
    await session.query("commit");
    done = true;
  } finally {
    // Stopped early (the file could not be written) or failed: the transaction ends here either way.
    if (!done) await session.query("rollback").catch(() => {});
  }
}

async function* tableRows(session: SqlSession, table: TableShape): AsyncGenerator<string> {
  const keyList = table.key.map((column) => quoteIdent(column.name)).join(", ");
  const keyText = table.key.map((column) => `${quoteIdent(column.name)}::text`).join(", ");
  const name = quoteIdent(table.name);
  const columns = table.columns.map(quoteIdent).join(", ");
  // Each column's stored size (compressed, as kept): the row's whole value would be read to measure it as one.
  const size = table.columns.map((column) => `coalesce(pg_column_size(${quoteIdent(column)}), 0)::bigint`).join(" + ");
  const after = (from: number) => `(${keyList}) > (${table.key.map((column, i) => `$${from + i}::${column.type}`).join(", ")})`;
  const upTo = (from: number) => `(${keyList}) <= (${table.key.map((column, i) => `$${from + i}::${column.type}`).join(", ")})`;
  let last: string[] | null = null;
  for (;;) {
    const keys: { key: string[]; size: number }[] = await session.query(
      `select array[${keyText}] as key, (${size})::float8 as size from ${name}
       ${last ? `where ${after(1)}` : ""} order by ${keyList} limit ${PAGE_ROWS}`,
      last ?? [],
    );
    if (keys.length === 0) return;
    // The page ends where its data passes PAGE_BYTES (a larger row comes alone).
    let end = 0;
    let bytes = 0;
    while (end < keys.length) {
      bytes += keys[end]?.size ?? 0;
      end += 1;
      if (bytes >= PAGE_BYTES) break;
    }
    const through = keys[end - 1]?.key as string[];
    const params = [...(last ?? []), ...through];
    const rows = await session.query<{ row: string }>(
      `select row_to_json(r)::text as row from (select ${columns} from ${name}
         where ${last ? `${after(1)} and ` : ""}${upTo((last?.length ?? 0) + 1)} order by ${keyList}) r`,
      params,
    );
    // Raw line ends can only be whitespace between JSON tokens (inside strings they are escaped): one row, one line.
    for (const { row } of rows) yield row.includes("\n") || row.includes("\r") ? row.replace(/[\r\n]/g, " ") : row;
    last = through;
  }
}

/** The sequences owned by a column of a public table (serial columns). */
export async function sequencesOf(session: SqlSession): Promise<{ name: string; qualified: string; table: string; column: string }[]> {
  return session.query(`
    select s.relname as name, format('%I.%I', n.nspname, s.relname) as qualified, t.relname as table, a.attname as column
    from pg_class s
    join pg_namespace n on n.oid = s.relnamespace
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' and n.nspname = 'public' and t.relnamespace = 'public'::regnamespace
    order by s.relname`);
}
