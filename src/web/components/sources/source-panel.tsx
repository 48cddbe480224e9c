import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ReactNode, useEffect, useRef } from "react";

export { SourceRef } from "./source-ref.js";

/**
 * The side panel (from `sm`; a bottom sheet on phones) that shows one source's passage: a reply's citation in the
 * chat, a lesson's source in a course. Open while `title` is not null.
 */
export function SourcePanel({ title, onClose, children }: { title: string | null; onClose: () => void; children: ReactNode }) {
  return (
    <DialogPrimitive.Root open={title !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 animate-fade-in" />
        <DialogPrimitive.Content
          className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85dvh] flex-col gap-3 rounded-t-2xl border-t bg-background p-5 shadow-lg outline-none sm:inset-y-0 sm:right-0 sm:left-auto sm:max-h-none sm:w-[26rem] sm:rounded-none sm:border-t-0 sm:border-l"
          aria-describedby={undefined}
        >
          {title !== null ? (
            <>
              <DialogPrimitive.Title className="pr-8 text-base font-semibold">{title}</DialogPrimitive.Title>
              {children}
            </>
          ) : null}
          <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm opacity-70 transition-opacity hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <XIcon className="size-5" aria-hidden="true" />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** Where the text around a passage turns to another page: a small line naming it. */
function PageTurn({ page }: { page: number }) {
  return <span className="my-1.5 block text-xs font-medium tracking-wide text-muted-foreground/80 uppercase">Page {page}</span>;
}

/**
 * A passage marked inside the text around it (either side may be empty), the whole passage always; a neighbour from
 * another page is headed by its page (`beforePage`, `afterPage`). The panel scrolls to the passage when it opens, a few
 * lines of the text before it still in view (the mark's `scroll-mt-*`). Takes a citation's or a lesson source's read as
 * it is (`<Passage {...detail} />`: the contracts' `passageInContextSchema`).
 */
export function Passage({
  before,
  passage,
  after,
  beforePage = null,
  afterPage = null,
}: {
  before: string;
  passage: string;
  after: string;
  beforePage?: number | null;
  afterPage?: number | null;
}) {
  const marked = useRef<HTMLElement>(null);
  useEffect(() => {
    if (before) marked.current?.scrollIntoView({ block: "start" });
  }, [before]);
  return (
    <blockquote
      aria-label="Passage"
      className="rounded-md border bg-muted/40 p-3 text-sm leading-relaxed whitespace-pre-wrap break-words text-muted-foreground"
    >
      {before ? (
        <span data-part="before">
          {beforePage !== null ? <PageTurn page={beforePage} /> : null}
          {before}
          {beforePage !== null ? null : " "}
        </span>
      ) : null}
      {beforePage !== null && before ? <span className="block h-2" aria-hidden="true" /> : null}
      <mark ref={marked} className="scroll-mt-24 rounded-sm bg-primary/15 px-0.5 text-foreground dark:bg-primary/25">
        {passage}
      </mark>
      {after ? (
        <span data-part="after">
          {afterPage !== null ? <PageTurn page={afterPage} /> : " "}
          {after}
        </span>
      ) : null}
    </blockquote>
  );
}
