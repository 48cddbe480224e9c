import { useEffect } from "react";
import { useLocation } from "wouter";

/** A new page starts at the top, as a full page load would. */
export function ScrollToTop() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is meant to run on every navigation
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
