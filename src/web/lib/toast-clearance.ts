import { useCallback, useRef } from "react";

/**
 * The element toasts must stay above on a phone (what sits under the chat's messages: its notices and composer,
 * issue 29): while it is on the page its height is `--toast-clearance` on the document, and the Toaster
 * (components/ui/toaster.tsx) sits that far up from the bottom, so a toast never covers Send. Without such an
 * element the clearance is 0. A callback ref, so an element that mounts after the first render is measured too.
 */
export function useToastClearance<T extends HTMLElement>() {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((element: T | null) => {
    const root = document.documentElement.style;
    observer.current?.disconnect();
    observer.current = null;
    if (!element) {
      root.removeProperty("--toast-clearance");
      return;
    }
    observer.current = new ResizeObserver(() => root.setProperty("--toast-clearance", `${element.offsetHeight}px`));
    observer.current.observe(element);
  }, []);
}
