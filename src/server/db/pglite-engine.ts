/** The embedded database's engine, as the thread that runs it (pglite-worker.ts) and the folder's creation start it. */

/**
 * PGlite's memory, sized deliberately (issue 15). Its WebAssembly heap starts at 128 MiB, the least its build
 * declares (`initialMemory` cannot go lower), grows with the work done and never shrinks. Most of it is
 * PostgreSQL's page cache, shared_buffers, 128MB by default: 16MB (`PGLITE_SHARED_BUFFERS`) kept a
 * restarted idle server near 265 MB instead of 415 MB (bench/memory); with the serve script's flags and the
 * collection after start (lib/lean-memory.ts) it is near 180 MB. Raise it for a large database on a
 * machine with memory to spare. Creating a new database (initdb and the migrations) grows the heap by
 * a few hundred MB, and leaves 60 to 80 MB in the process's native heap that closing PGlite does not hand back:
 * a new folder is created by a process of its own (`pglite-create.ts`), and a folder just migrated is closed and
 * opened again before the server starts (bench/memory: 650 MB idle on a new folder at first, about 350 MB with the
 * reopening, 245 to 255 MB with the collection after start, and about 180 MB, as after a restart, with the process).
 */
export const PGLITE_MEMORY = { initialMemory: 128 * 1024 * 1024, sharedBuffers: "16MB" } as const;

/**
 * `template`: an in-memory database starts as a copy of this data folder (a tarball from `dumpDataDir`) instead of a
 * new one: the tests' databases, which start from one made and migrated once (tests/helpers/test-database.ts).
 */
export async function createPglite(dir: string | undefined, sharedBuffers: string, template?: Blob) {
  const [{ PGlite }, { pg_trgm }, { vector }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite-pgvector"),
  ]);
  // pg_trgm: the admin searches (migration 0007); PostgreSQL ships it in contrib. vector: pgvector, for the knowledge
  // library's embeddings (issue 30, decision 033); offered here, created by the knowledge module at start.
  return PGlite.create(dir, {
    extensions: { pg_trgm, vector },
    initialMemory: PGLITE_MEMORY.initialMemory,
    postgresqlconf: `shared_buffers=${sharedBuffers}`,
    ...(template ? { loadDataDir: template } : {}),
  });
}
