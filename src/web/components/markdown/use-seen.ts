import { type RefObject, useEffect, useState } from "react";

/** How far outside the viewport an element counts as coming into view. */
const MARGIN = "100px 0px";

/**
 * True once the element has come into view (within MARGIN), and from then on. Where the browser has no
 * IntersectionObserver (a test's DOM), at once.
 */
export function useSeen(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}
