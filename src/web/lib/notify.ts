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

/** Until then (ms since the page opened), failures are not toasted: see `notify.quietAfterSessionEnded`. */
let errorsQuietUntil = 0;

function show(kind: "success" | "error", title: string, description?: string, id?: string): void {
  if (kind === "error" && performance.now() < errorsQuietUntil) return;
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
  /**
   * A session just ended (app/session-ended.ts): the page goes to sign-in, which says why, so the failures of the
   * requests that found it ended (raised in the next moments by the forms and lists that sent them) are not toasted
   * over the sign-in screen as well, and the toasts already shown go.
   */
  quietAfterSessionEnded() {
    errorsQuietUntil = performance.now() + 3000;
    if (toasterWanted) void import("sonner").then(({ toast }) => toast.dismiss());
  },
};
