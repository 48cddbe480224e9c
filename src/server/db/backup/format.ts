import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

/**
 * A backup file (decision 075): gzip of lines. A line that starts with `[` says what follows (a JSON array whose first
 * item names it); any other line is one row as PostgreSQL's `row_to_json` wrote it. In order:
 *
 *   ["lumora-backup", header]               once, first
 *   ["table", name, [column, ...]]          then that table's rows, one a line
 *   ["rows", name, count]                   after them: how many there were
 *   ["sequence", name, table, column, lastValue, isCalled]
 *   ["end", { tables, rows }]               last: a file without it was cut short
 */
export const BACKUP_FORMAT = "lumora-backup";
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** How many migrations the source had applied, and the last one's time (its `when` in the migrations' journal). */
  migrations: number;
  lastMigration: number;
  createdAt: string;
  /** The public tables it holds, in the order they follow. */
  tables: string[];
  /** The app secret that sealed the stored keys (absent when the backup was made without it). */
  appSecret?: string;
}

export type ControlLine =
  | ["table", string, string[]]
  | ["rows", string, number]
  | ["sequence", string, string, string, string, boolean]
  | ["end", { tables: number; rows: number }];

export const controlLine = (line: ControlLine | ["lumora-backup", BackupHeader]) => JSON.stringify(line);

/** A backup that cannot be read as one: damaged, cut short, or not a backup. */
export class BackupFileError extends Error {}

/** The lines of a text stream, one at a time, with the stream's back-pressure (a line may be as long as a stored file). */
export async function* linesOf(text: AsyncIterable<string>): AsyncGenerator<string> {
  let pending: string[] = [];
  for await (const chunk of text) {
    let start = 0;
    for (let at = chunk.indexOf("\n"); at !== -1; at = chunk.indexOf("\n", start)) {
      pending.push(chunk.slice(start, at));
      yield pending.join("");
      pending = [];
      start = at + 1;
    }
    if (start < chunk.length) pending.push(chunk.slice(start));
  }
  if (pending.length > 0) yield pending.join("");
}

/** The lines of a backup file, its header read and checked first. */
export class BackupReader {
  private constructor(
    readonly header: BackupHeader,
    private readonly rest: AsyncGenerator<string>,
  ) {}

  /**
   * Opens `file` after a first pass through it (gzip's checks, its rows counted against its end line), so a damaged or
   * cut-short file is refused before a restore writes anything; the load checks it again as it reads.
   */
  static async open(file: string): Promise<BackupReader> {
    const lines = (await BackupReader.read(file)).lines();
    let rows = 0;
    let last = "";
    for await (const line of lines) {
      if (!line.startsWith("[")) rows += 1;
      last = line;
    }
    const end = parseControl(last);
    if (end?.[0] !== "end") throw new BackupFileError("The backup file is cut short: it stops before its end. Nothing was restored.");
    if ((end[1] as { rows: number }).rows !== rows) {
      throw new BackupFileError("The backup file is damaged (its rows do not add up). Nothing was restored.");
    }
    return BackupReader.read(file);
  }

  private static async read(file: string): Promise<BackupReader> {
    const input = createReadStream(file);
    const gunzip = input.pipe(createGunzip());
    gunzip.setEncoding("utf8");
    // A read error of the file itself (none there, unreadable) reaches the lines through the gunzip stream.
    input.once("error", (error) => gunzip.destroy(error));
    const lines = linesOf(readable(gunzip, file));
    return BackupReader.from(lines);
  }

  /** From lines already produced (a move to PostgreSQL reads the dump as it is written). */
  static async from(lines: AsyncGenerator<string>): Promise<BackupReader> {
    const first = await lines.next();
    const header = first.done ? undefined : parseControl(first.value);
    if (!header || header[0] !== BACKUP_FORMAT) {
      await lines.return(undefined);
      throw new BackupFileError("This file is not a backup made by `npm run backup`.");
    }
    const value = header[1] as BackupHeader;
    if (value.version !== BACKUP_VERSION) {
      await lines.return(undefined);
      throw new BackupFileError(
        `This backup has format version ${value.version}; this version of the app reads version ${BACKUP_VERSION}.`,
      );
    }
    return new BackupReader(value, lines);
  }

  lines(): AsyncGenerator<string> {
    return this.rest;
  }

  /** Stops reading (closes the file). */
  async close(): Promise<void> {
    await this.rest.return(undefined);
  }
}

async function* readable(stream: NodeJS.ReadableStream & AsyncIterable<string | Buffer>, file: string): AsyncGenerator<string> {
  try {
    for await (const chunk of stream) yield String(chunk);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupFileError(`No backup file at ${file}.`);
    throw new BackupFileError(`The backup file ${file} is damaged or cut short (${(error as Error).message}).`);
  }
}

/** A control line, or null for a row. */
export function parseControl(line: string): unknown[] | null {
  if (!line.startsWith("[")) return null;
  try {
    const parsed = JSON.parse(line) as unknown;
    if (Array.isArray(parsed) && typeof parsed[0] === "string") return parsed;
  } catch {
    // Reported below, as any line out of place.
  }
  throw new BackupFileError("The backup file is damaged: a line cannot be read.");
}

/**
 * Writes `lines` to `file` as gzip, through `<file>.partial`, renamed only once the last line is written: a backup
 * that failed or was stopped leaves no file that looks whole. `secret`: the file holds the app secret, so only its
 * owner may read it (0600).
 */
export async function writeBackupFile(file: string, lines: AsyncIterable<string>, options: { secret: boolean }): Promise<number> {
  const partial = `${file}.partial`;
  // A leftover of an earlier attempt keeps its mode: the file is made anew.
  rmSync(partial, { force: true });
  const out = createWriteStream(partial, { mode: options.secret ? 0o600 : 0o644 });
  async function* withNewlines() {
    for await (const line of lines) yield `${line}\n`;
  }
  try {
    await pipeline(Readable.from(withNewlines()), createGzip(), out);
    renameSync(partial, file);
    return statSync(file).size;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** The migrations of this build: how many and each one's time, from the journal drizzle-kit writes. */
export function journalOf(migrationsFolder: string): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries;
}
