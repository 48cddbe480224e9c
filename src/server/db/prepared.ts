import type { Db } from "./client.js";

/**
 * A query built and prepared once per database, for the hottest reads (issue 15: what a reply reads before the
 * provider is asked). Drizzle builds its SQL once, and PostgreSQL parses and plans the named statement once per
 * connection: about half of such a read's time, measured. `build` takes the database and ends with
 * `.prepare(name)`; its values are `sql.placeholder`s, given to `execute`. A transaction is a database here too:
 * its query is built once per transaction and runs on the transaction's connection, where the statement of that
 * name is already parsed once that connection has run it.
 */
export function preparedPerDb<D extends Pick<Db, "select">, T>(build: (db: D) => T): (db: D) => T {
  const byDb = new WeakMap<D, T>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
