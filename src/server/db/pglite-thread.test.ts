import { statSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgliteThread, startPgliteThread } from "./pglite-thread.js";

// The embedded database on its own thread, reached through its socket by several connections at once: each
// connection's statements, prepared statements and transactions stay its own although they share one session.
let thread: PgliteThread;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ host: thread.socketDir, port: 5432, user: "postgres", database: "postgres" });
  await client.connect();
  clients.push(client);
  return client;
}

beforeAll(async () => {
  thread = await startPgliteThread(undefined, "16MB");
  const setup = await connect();
  await setup.query("create table notes (id serial primary key, owner text not null, body text not null)");
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await thread.close();
});

describe("the embedded database's socket", () => {
  it("is reachable only by this user: its folder is 0700", () => {
    expect(statSync(thread.socketDir).mode & 0o777).toBe(0o700);
  });

  it("answers every connection's parameterized statements with its own values when they interleave", async () => {
    const [a, b, c] = await Promise.all([connect(), connect(), connect()]);
    // Three connections at once, each one statement after another (a pg client runs one query at a time).
    const ask = async (client: pg.Client, who: string) => {
      const answers: string[][] = [];
      for (let i = 0; i < 60; i++) {
        // Unnamed statements (Parse, Bind, Execute, Sync) and a named one, which a session keeps by name. Each
        // connection's statement text differs, so an answer from another connection's statement would show.
        const plain = await client.query(`select '${who}' || ':' || $1::int as v`, [i]);
        const named = await client.query({ name: `echo_${who}`, text: "select $1::text as v, $2::int as n", values: [who, i] });
        answers.push([plain.rows[0].v, `${named.rows[0].v}:${named.rows[0].n}`]);
      }
      return answers;
    };
    const answers = await Promise.all([ask(a, "a"), ask(b, "b"), ask(c, "c")]);
    for (const [index, who] of ["a", "b", "c"].entries()) {
      expect(answers[index]).toEqual(Array.from({ length: 60 }, (_, i) => [`${who}:${i}`, `${who}:${i}`]));
    }
  });

  it("keeps a transaction's statements to its own connection: the others wait and see only what was committed", async () => {
    const [writer, reader] = await Promise.all([connect(), connect()]);
    await writer.query("begin");
    await writer.query("insert into notes (owner, body) values ($1, $2)", ["writer", "inside"]);
    const seenDuring = reader.query("select count(*)::int as n from notes where owner = 'writer'");
    const pending = await Promise.race([seenDuring.then(() => "answered"), new Promise((r) => setTimeout(() => r("waiting"), 300))]);
    expect(pending).toBe("waiting");
    await writer.query("commit");
    expect((await seenDuring).rows[0].n).toBe(1);
  });

  it("rolls back what a connection that closed mid-transaction left open, and serves the others", async () => {
    const [leaving, staying] = await Promise.all([connect(), connect()]);
    await leaving.query("begin");
    await leaving.query("insert into notes (owner, body) values ($1, $2)", ["leaving", "never committed"]);
    const waiting = staying.query("select count(*)::int as n from notes where owner = 'leaving'");
    await leaving.end();
    expect((await waiting).rows[0].n).toBe(0);
    expect((await staying.query("select 1 as one")).rows[0].one).toBe(1);
  });

  it("lets a new connection prepare a name one that closed had prepared, as on PostgreSQL", async () => {
    const first = await connect();
    expect((await first.query({ name: "shared_name", text: "select $1::int as v", values: [1] })).rows[0].v).toBe(1);
    await first.end();
    const second = await connect();
    expect((await second.query({ name: "shared_name", text: "select $1::int + 1 as v", values: [1] })).rows[0].v).toBe(2);
  });

  it("keeps an error to the statement that caused it", async () => {
    const [failing, other] = await Promise.all([connect(), connect()]);
    const [bad, good] = await Promise.allSettled([
      failing.query("select 1 / $1::int as v", [0]),
      other.query("select $1::int + 1 as v", [41]),
    ]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && good.value.rows[0].v).toBe(42);
    expect((await failing.query("select 2 as v")).rows[0].v).toBe(2);
  });
});
