import { createContext, useContext, useEffect } from "react";

/**
 * The virtual message list draws only the rows in view (decision 032). A row whose state must not be lost while
 * it is scrolled away (a message being edited) asks the list to keep it drawn: `keep(key)` returns the release.
 */
export const KeepRowContext = createContext<((key: string) => () => void) | null>(null);

/** Keeps the row `key` drawn while `key` is not null (outside a virtual list: nothing to do). */
export function useKeepRow(key: string | null) {
  const keep = useContext(KeepRowContext);
  useEffect(() => (key === null || !keep ? undefined : keep(key)), [keep, key]);
}
