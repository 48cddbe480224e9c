import type { PlannedSource } from "../../../shared/contracts/courses.js";

type Labelled = Pick<PlannedSource, "kind" | "fileName" | "page">;

/** "handbook.pdf · page 3", "handbook.md", or "chat · message": how a course names where a passage comes from. */
export function sourceLabel(source: Labelled): string {
  if (source.kind === "message") return "chat · message";
  const name = source.fileName ?? "file";
  return source.page ? `${name} · page ${source.page}` : name;
}

/** A module's sources: its lessons' passages, each file (with its pages) or the chat named once. */
export function sourceUnion(lists: readonly (readonly Labelled[])[]): string[] {
  const pages = new Map<string, Set<number>>();
  for (const source of lists.flat()) {
    const key = source.kind === "message" ? "chat · messages" : (source.fileName ?? "file");
    const seen = pages.get(key) ?? new Set<number>();
    if (source.kind === "file" && source.page) seen.add(source.page);
    pages.set(key, seen);
  }
  return [...pages].map(([name, numbers]) => {
    const sorted = [...numbers].sort((a, b) => a - b);
    if (sorted.length === 0) return name;
    return `${name} · ${sorted.length === 1 ? "page" : "pages"} ${sorted.join(", ")}`;
  });
}
