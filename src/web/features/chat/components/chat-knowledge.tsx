import { BookOpen, Ellipsis } from "lucide-react";
import { useState } from "react";
import type { Chat } from "../../../../shared/contracts/chat.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";
import { KnowledgeDialog } from "./lazy-chat-dialogs.js";

const countText = (n: number) => `${n} ${n === 1 ? "collection" : "collections"}`;

/**
 * A stored chat's knowledge in the header: a badge ("2 collections") when collections are attached, and the chat's
 * menu with "Knowledge…", which opens the dialog that attaches them.
 */
export function ChatKnowledge({ chat }: { chat: Chat }) {
  const [open, setOpen] = useState(false);
  const count = chat.collectionIds.length;
  return (
    <>
      {count > 0 ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          title="Collections this chat searches"
          className="shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring inline-flex"
        >
          <BookOpen className="size-3.5" aria-hidden="true" />
          {/* On a phone the number alone, so the header's row keeps room for the pickers (decision 060). */}
          <span aria-hidden="true" className="sm:hidden">
            {count}
          </span>
          <span className="max-sm:sr-only">{countText(count)}</span>
        </button>
      ) : null}
      <LazyDropdownMenu
        trigger={
          <Button variant="ghost" size="icon" className="size-9 shrink-0" aria-label="Chat options" title="Chat options">
            <Ellipsis className="size-5" aria-hidden="true" />
          </Button>
        }
      >
        {(ui) => (
          <ui.DropdownMenuContent align="end">
            <ui.DropdownMenuItem onSelect={() => setOpen(true)}>
              <BookOpen aria-hidden="true" />
              Knowledge…
              {count > 0 ? <span className="ml-auto pl-3 text-xs text-muted-foreground">{count}</span> : null}
            </ui.DropdownMenuItem>
          </ui.DropdownMenuContent>
        )}
      </LazyDropdownMenu>
      {open ? <KnowledgeDialog target={{ chat }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
