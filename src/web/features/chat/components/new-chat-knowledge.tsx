import { useQuery } from "@tanstack/react-query";
import { BookOpen, X } from "lucide-react";
import { useState } from "react";
import type { Collection } from "../../../../shared/contracts/knowledge.js";
import { collectionsQuery } from "../files-api.js";
import { ComposerIconButton } from "./composer-icon-button.js";
import { KnowledgeDialog } from "./lazy-chat-dialogs.js";

/**
 * A new chat's collections (decision 066), chosen in its composer before the first message, which creates the chat with
 * them. `ids` come from the Knowledge dialog or the address ("Ask this collection"); what shows, and what is sent once
 * the list is read, are those the user's own list has, so an id of someone else's or a missing collection shows
 * nothing (and the server refuses it anyway).
 */
export function useNewChatCollections(ids: readonly number[]): { shown: Collection[]; ids: readonly number[] } {
  const list = useQuery({ ...collectionsQuery, enabled: ids.length > 0 });
  if (ids.length === 0 || !list.data) return { shown: [], ids };
  const shown = list.data.filter((c) => ids.includes(c.id));
  return { shown, ids: shown.map((c) => c.id) };
}

/** "Knowledge" beside the message box of a new chat: opens the dialog that chooses its collections. */
export function NewChatKnowledgeButton({
  chosen,
  disabled,
  onChange,
}: {
  chosen: readonly number[];
  disabled?: boolean;
  onChange: (collectionIds: number[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const count = chosen.length;
  return (
    <>
      <ComposerIconButton
        icon={<BookOpen aria-hidden="true" />}
        name="Knowledge"
        count={count}
        countSuffix={count === 1 ? "collection" : "collections"}
        disabled={disabled}
        onClick={() => setOpen(true)}
      />
      {open ? <KnowledgeDialog target={{ draft: chosen, choose: onChange }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The chosen collections above the message box, each removable. */
export function NewChatKnowledgeChips({ shown, onRemove }: { shown: Collection[]; onRemove: (id: number) => void }) {
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Collections this chat searches" className="flex flex-wrap gap-1.5 px-3 pt-3">
      {shown.map((collection) => (
        <li key={collection.id} className="max-w-full">
          <span
            title={`Every reply searches ${collection.name}`}
            className="inline-flex max-w-full items-center gap-1.5 rounded-md border border-primary/30 bg-primary/5 px-2 py-1 text-xs text-foreground dark:border-primary/40 dark:bg-primary/10"
          >
            <BookOpen className="size-3.5 shrink-0 text-primary" aria-hidden="true" />
            <span className="truncate font-medium">{collection.name}</span>
            <span className="shrink-0 text-muted-foreground">
              {collection.fileCount} {collection.fileCount === 1 ? "file" : "files"}
            </span>
            <button
              type="button"
              onClick={() => onRemove(collection.id)}
              aria-label={`Stop searching ${collection.name}`}
              className="-mr-1 rounded p-0.5 text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-3.5" aria-hidden="true" />
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
