import type { Db } from "./client.js";

/**
 * A query built and prepared once per database, for the hottest reads (issue 15: what a reply reads before the
 * provider is asked). Drizzle builds its SQL once, and PostgreSQL parses and plans the named statement once per
 * connection: about half of such a read's time, measured. `build` takes the database and ends with
 * `.prepare(name)`; its values are `sql.placeholder`s, given to `execute`.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
