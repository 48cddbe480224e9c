import { useEffect, useSyncExternalStore } from "react";

/**
 * The one way a page names its tab (issue 29): `usePageTitle("Users", "Admin")` while it is shown; the page
 * head (app/document-title.tsx) adds the live product name: "Users · Admin · Lumora". Parts that are not known
 * yet (a chat's title still loading) are left out with `undefined`.
 */
let parts: readonly string[] = [];
const listeners = new Set<() => void>();

function publish(next: readonly string[]): void {
  if (next.length === parts.length && next.every((part, i) => part === parts[i])) return;
  parts = next;
  for (const listener of listeners) listener();
}

export function usePageTitle(...given: (string | null | undefined)[]): void {
  const key = given.map((part) => part?.trim() ?? "").join("\u0000");
  useEffect(() => {
    publish(key.split("\u0000").filter((part) => part !== ""));
    return () => publish([]);
  }, [key]);
}

/** The shown page's own parts (most specific first), for the page head. */
export function usePageTitleParts(): readonly string[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => parts,
    () => parts,
  );
}

/** "<parts> · <product>": the tab's title. */
export function composeTitle(own: readonly string[], product: string): string {
  return [...own, product].join(" · ");
}
