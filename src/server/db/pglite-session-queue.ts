import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded database is one PostgreSQL session, shared by every connection the socket server accepts
 * (pglite-thread.ts). This queue hands it to one connection's messages at a time, and keeps it with that
 * connection for as long as the session is that connection's alone:
 * - from a Parse, Bind, Describe, Execute or Close up to the Sync that ends the sequence (the extended query
 *   protocol: a Bind refers to the statement the Parse before it made, so another connection's Parse in between
 *   would replace it; the library's own queue hands the session over between any two messages);
 * - while a transaction is open (another connection's statements would run inside it);
 * - during a COPY between its start and its end.
 * The same interface as the queue of `@electric-sql/pglite-socket`, whose connection handler it serves.
 */

const PARSE = 0x50; // "P"
const CLOSE = 0x43; // "C"
const STATEMENT = 0x53; // "S": a Close of a prepared statement (not of a portal)

/** A message that starts or continues a sequence the session must finish before anyone else is served. */
const HOLDING = new Set(["P", "B", "D", "E", "C", "H", "d"]);
/** Messages that end such a sequence: the session is free again unless a transaction or a COPY is open. */
const ENDING = new Set(["S", "Q", "c", "f"]);
/** The server's answer that starts a COPY from the client: the session stays with it until its CopyDone or CopyFail. */
const COPY_IN_RESPONSE = 0x47; // "G"

interface Queued {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
}

export class PgliteSessionQueue {
  private queue: Queued[] = [];
  private running = false;
  /** The connection the session belongs to until its sequence, transaction or COPY ends; null when free. */
  private owner: number | null = null;
  private inCopy = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    this.notePrepared(handlerId, message);
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.run();
    });
  }

  /** Named statements by connection: a Parse names one (its name follows the length), a Close of a statement ends it. */
  private prepared = new Map<number, Set<string>>();

  private notePrepared(handlerId: number, message: Uint8Array): void {
    const type = message[0];
    if (type !== PARSE && !(type === CLOSE && message[5] === STATEMENT)) return;
    const from = type === PARSE ? 5 : 6;
    const end = message.indexOf(0, from);
    if (end <= from) return;
    const name = Buffer.from(message.buffer, message.byteOffset + from, end - from).toString("utf8");
    const names = this.prepared.get(handlerId) ?? new Set<string>();
    if (type === PARSE) names.add(name);
    else names.delete(name);
    this.prepared.set(handlerId, names);
  }

  /** A simple query on behalf of a connection that has gone: run in its turn, its answer dropped. */
  private enqueueSimple(handlerId: number, text: string): Promise<number> {
    const body = Buffer.from(`${text}\0`, "utf8");
    const message = Buffer.alloc(5 + body.length);
    message.write("Q", 0, "latin1");
    message.writeInt32BE(4 + body.length, 1);
    body.copy(message, 5);
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData: () => {}, resolve, reject });
      void this.run();
    }).then(
      (bytes) => bytes as number,
      () => 0,
    );
  }

  /** A connection closed: what it still had queued is dropped. */
  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error("the connection closed"));
      return false;
    });
  }

  /**
   * A connection closed. Its named prepared statements go (a new connection may prepare the same names, as it may on
   * PostgreSQL, where they belong to the connection); if the session was its own, its sequence and transaction end.
   * Then the others go on.
   */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner === handlerId) {
      // A Sync ends an unfinished extended-protocol sequence (and the implicit transaction it opened); `exec` takes
      // the engine's lock itself.
      await this.db.runExclusive(() => this.db.execProtocolRaw(new Uint8Array([0x53, 0, 0, 0, 4])));
      if (this.db.isInTransaction()) await this.db.exec("rollback");
      this.owner = null;
      this.inCopy = false;
    }
    const names = this.prepared.get(handlerId);
    this.prepared.delete(handlerId);
    if (names?.size) {
      const list = [...names].map((name) => `deallocate "${name.replaceAll('"', '""')}";`);
      await this.enqueueSimple(handlerId, list.join(" "));
    }
    void this.run();
  }

  private next(): Queued | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        const type = String.fromCharCode(item.message[0] ?? 0);
        let bytes = 0;
        const answer = new MessageTypes();
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                answer.read(data);
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          item.reject(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (answer.seen.has(COPY_IN_RESPONSE)) this.inCopy = true;
        else if (type === "c" || type === "f") this.inCopy = false;
        const holds = HOLDING.has(type) || this.inCopy || this.db.isInTransaction();
        if (holds) this.owner = item.handlerId;
        else if (ENDING.has(type)) this.owner = null;
        item.resolve(bytes);
      }
    } finally {
      this.running = false;
    }
  }
}

/** The types of the messages in an answer that arrives in pieces (each message: a type byte, then a 4-byte length). */
class MessageTypes {
  readonly seen = new Set<number>();
  /** Bytes left of the message being read, or of its header while `header` is not full. */
  private left = 0;
  private header: number[] = [];

  read(data: Uint8Array): void {
    let at = 0;
    while (at < data.length) {
      if (this.left > 0) {
        const skip = Math.min(this.left, data.length - at);
        this.left -= skip;
        at += skip;
        continue;
      }
      this.header.push(data[at++] ?? 0);
      if (this.header.length < 5) continue;
      const [type = 0, a = 0, b = 0, c = 0, d = 0] = this.header;
      this.seen.add(type);
      this.left = ((a << 24) | (b << 16) | (c << 8) | d) - 4;
      this.header = [];
    }
  }
}
