import { useSyncExternalStore } from "react";

/**
 * Toasts in one style: success is neutral, failure is the destructive (red)
 * variant. sonner and its Toaster load on the first toast, so no page pays
 * for them up front (sonner shows toasts raised before its Toaster mounted).
 */
let toasterWanted = false;
const listeners = new Set<() => void>();

function wantToaster(): void {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const listener of listeners) listener();
}

/** True once a toast has been raised: the app then mounts the Toaster. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasterWanted,
  );
}

function show(kind: "success" | "error", title: string, description?: string, id?: string): void {
  wantToaster();
  void import("sonner").then(({ toast }) => {
    toast[kind](title, { description, id });
  });
}

export const notify = {
  success(title: string, description?: string, id?: string) {
    show("success", title, description, id);
  },
  error(title: string, description?: string, id?: string) {
    show("error", title, description, id);
  },
};
