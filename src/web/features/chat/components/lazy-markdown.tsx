import { type NumberedRefs, splitNumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { preloadable } from "../../../lib/preloadable.js";

/**
 * The markdown renderer (with highlight.js) is its own chunk: the chat shows at once, replies format when it
 * arrives. Fetched at boot on /chat/{id} (`first-screen-prefetch.ts`); a reply drawn before it arrives shows as
 * typed, without suspending (decision 041).
 */
export const Markdown = preloadable(
  () => import("../../../components/markdown/markdown.js").then((m) => m.Markdown),
  ({ content, refs }: { content: string; className?: string; refs?: NumberedRefs }) => <PlainText content={content} refs={refs} />,
);

/** The reply as typed (markdown rendering off, or while the renderer loads), its known `[n]` drawn as sources. */
export function PlainText({ content, refs }: { content: string; refs?: NumberedRefs }) {
  return (
    <div className="whitespace-pre-wrap break-words text-[0.9375rem] leading-7">
      {refs ? splitNumberedRefs(content, refs.numbers).map((part) => (typeof part === "string" ? part : refs.render(part))) : content}
    </div>
  );
}
