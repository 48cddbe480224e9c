import { useCallback, useEffect, useLayoutEffect, useRef } from "react";

const NEAR_BOTTOM_PX = 80;
const UP_KEYS = ["ArrowUp", "PageUp", "Home"];

/**
 * The list scrolls smoothly to the newest message whenever the
 * messages or the loading state change (and when a reply grows, or formats
 * once the markdown renderer arrives). It stops following while the user
 * reads further up, and follows again once they scroll back down. Older
 * messages added on top keep the view where it was.
 */
export function useStickToBottom({ changeKey, firstKey, sentKey }: { changeKey: string; firstKey: unknown; sentKey: unknown }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const scrolledOnce = useRef(false);
  const fromBottom = useRef<number | null>(null);

  const toBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element || !follow.current) return;
    const smooth = scrolledOnce.current && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // The first time (opening a chat) it jumps; after that it glides.
    if (element.scrollHeight > element.clientHeight) scrolledOnce.current = true;
    element.scrollTo({ top: element.scrollHeight, behavior: smooth ? "smooth" : "auto" });
  }, []);

  useEffect(() => {
    const element = scrollRef.current;
    const content = contentRef.current;
    if (!element || !content) return;
    const onScroll = () => {
      if (element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX) follow.current = true;
    };
    const onUserScroll = (event: Event) => {
      const up =
        (event instanceof WheelEvent && event.deltaY < 0) ||
        event.type === "touchmove" ||
        (event.type === "pointerdown" && event.target === element) || // the scrollbar
        (event instanceof KeyboardEvent && UP_KEYS.includes(event.key));
      if (up) follow.current = false;
    };
    const events = ["wheel", "touchmove", "keydown", "pointerdown"] as const;
    element.addEventListener("scroll", onScroll, { passive: true });
    for (const name of events) element.addEventListener(name, onUserScroll, { passive: true });
    const resize = new ResizeObserver(() => {
      if (fromBottom.current === null) toBottom();
    });
    resize.observe(content);
    return () => {
      resize.disconnect();
      element.removeEventListener("scroll", onScroll);
      for (const name of events) element.removeEventListener(name, onUserScroll);
    };
  }, [toBottom]);

  // Older messages were put on top: keep the same distance from the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the first message changes
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || fromBottom.current === null) return;
    element.scrollTop = element.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [firstKey]);

  // The user sent a message: follow again, wherever they were.
  useLayoutEffect(() => {
    if (sentKey !== null && sentKey !== undefined) follow.current = true;
  }, [sentKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest content changes
  useEffect(() => {
    toBottom();
  }, [changeKey]);

  /** Call before loading older messages. */
  const keepPosition = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    follow.current = false;
    fromBottom.current = element.scrollHeight - element.scrollTop;
  }, []);

  return { scrollRef, contentRef, keepPosition };
}
