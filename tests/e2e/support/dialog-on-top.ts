import type { Locator } from "playwright-core";

/**
 * Waits until a Radix dialog is the top layer again, as a person sees it: after a dialog above it (the
 * unsaved-changes question) closes, Radix re-renders the one below in a later task, and only then does it take
 * Escape and a click outside (until then its layer style keeps `pointer-events: none`, and its Escape listener is
 * not attached). A raw `page.mouse.click` or `keyboard.press` sent in that window is dropped, which a person, who
 * cannot act within a frame, never meets. Waits for the style, then one frame and a task for the effects after it.
 */
export async function dialogOnTop(dialog: Locator): Promise<void> {
  await dialog.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if ((element as HTMLElement).style.pointerEvents === "auto") requestAnimationFrame(() => setTimeout(resolve, 0));
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
}
