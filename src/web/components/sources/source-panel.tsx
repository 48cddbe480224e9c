import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";

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

/** A passage marked inside the text around it (either side may be empty). */
export function Passage({ before, excerpt, after }: { before: string; excerpt: string; after: string }) {
  return (
    <blockquote
      aria-label="Passage"
      className="rounded-md border bg-muted/40 p-3 text-sm leading-relaxed whitespace-pre-wrap break-words text-muted-foreground"
    >
      {before ? <span>{before} </span> : null}
      <mark className="rounded-sm bg-primary/15 px-0.5 text-foreground dark:bg-primary/25">{excerpt}</mark>
      {after ? <span> {after}</span> : null}
    </blockquote>
  );
}
