/**
 * Searching text someone typed with LIKE / ILIKE (the admin's user search, User Activity, the catalogue): the term is
 * matched as it is written, never as a pattern.
 */

/** `%`, `_` and `\` typed by someone are matched as themselves, not as LIKE wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * `50%_off\` → `%50\%\_off\\%`: an ILIKE pattern that finds the term literally, anywhere, lower-cased like the
 * trigram-indexed `lower(...)` expressions it is matched against.
 */
export function containsPattern(term: string): string {
  return `%${escapeLike(term.toLowerCase())}%`;
}
