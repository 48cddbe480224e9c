/**
 * `[n]` in a reply's text: a numbered reference to a source it was given (decisions 037, 055). The one rule for the
 * server's stored citations and the web's chips (live ones too).
 */
export const NUMBERED_REF = /\[(\d{1,4})\]/g;

/**
 * The sources a text cites: each `[n]` that names one of `sources`, once, ordered by n; a number that names none
 * (invented by the model) is left out.
 */
export function citedIn<T extends { n: number }>(text: string, sources: readonly T[]): T[] {
  if (sources.length === 0) return [];
  const cited = new Map<number, T>();
  for (const match of text.matchAll(NUMBERED_REF)) {
    const n = Number(match[1]);
    if (cited.has(n)) continue;
    const source = sources.find((s) => s.n === n);
    if (source) cited.set(n, source);
  }
  return [...cited.values()].sort((a, b) => a.n - b.n);
}
