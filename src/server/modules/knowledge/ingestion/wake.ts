/**
 * Wakes this process's ingestion workers at once (a file stored, a Retry, a new embedding model); a file queued on
 * another instance waits for that instance's next look, a few seconds at most.
 */
const wakers = new Set<() => void>();

export function wakeIngestion(): void {
  for (const wake of wakers) wake();
}

/** A worker listens while it runs; the returned function stops listening. */
export function onIngestionWake(wake: () => void): () => void {
  wakers.add(wake);
  return () => {
    wakers.delete(wake);
  };
}
