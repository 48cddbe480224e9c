import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type { Chat } from "../../../../shared/contracts/chat.js";
import { Button } from "../../../components/ui/button.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { useUpdateChat } from "../api.js";
import { collectionsQuery } from "../files-api.js";
import { formatBytes } from "../format-bytes.js";

/**
 * Whose collections the dialog sets: a stored chat's (Save patches its `collectionIds`), or a new chat's, kept by the
 * chat screen until its first message creates the chat with them (decision 066).
 */
export type KnowledgeTarget = { chat: Chat } | { draft: readonly number[]; choose: (collectionIds: number[]) => void };

/** The user's collections with a checkbox each, for a stored chat (PATCH /api/chats/{id}) or a new one. */
export function KnowledgeDialog({ target, onClose }: { target: KnowledgeTarget; onClose: () => void }) {
  const collections = useQuery(collectionsQuery);
  const update = useUpdateChat();
  const [chosen, setChosen] = useState<Set<number>>(() => new Set("chat" in target ? target.chat.collectionIds : target.draft));
  const toggle = (id: number, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const save = () => {
    // Only collections the list has: an id from an address that is not the user's is never kept.
    const ids = [...chosen].filter((id) => collections.data?.some((c) => c.id === id)).sort((a, b) => a - b);
    if ("draft" in target) {
      target.choose(ids);
      onClose();
      return;
    }
    update.mutate(
      { id: target.chat.id, body: { collectionIds: ids } },
      { onSuccess: onClose, onError: (error) => notify.error("Could not save the collections", errorMessage(error)) },
    );
  };
  const isNew = "draft" in target;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Knowledge</DialogTitle>
          <DialogDescription>
            {isNew
              ? "Every reply in this chat, the first one too, searches the collections you tick and cites what it used."
              : "Every reply in this chat searches the collections you tick and cites what it used."}
          </DialogDescription>
        </DialogHeader>
        {collections.isPending ? (
          <Spinner label="Loading collections" />
        ) : collections.isError ? (
          <p className="text-sm text-destructive">The collections could not be loaded: {errorMessage(collections.error)}</p>
        ) : collections.data.length === 0 ? (
          <p className="text-sm">
            No collections yet.{" "}
            <Link href={paths.knowledge} className="font-medium text-primary underline underline-offset-2">
              Create one in your knowledge library
            </Link>
          </p>
        ) : (
          <ul aria-label="Collections" className="flex max-h-72 flex-col gap-1 overflow-y-auto">
            {collections.data.map((collection) => (
              <li key={collection.id}>
                <div className="flex items-center gap-3 rounded-md px-2 hover:bg-accent">
                  <Checkbox
                    id={`chat-collection-${collection.id}`}
                    checked={chosen.has(collection.id)}
                    onCheckedChange={(on) => toggle(collection.id, on === true)}
                  />
                  <label
                    htmlFor={`chat-collection-${collection.id}`}
                    className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 py-2"
                  >
                    <span className="min-w-0 flex-1 truncate text-sm font-medium">{collection.name}</span>
                    <span className="shrink-0 text-xs text-muted-foreground">
                      {collection.fileCount} {collection.fileCount === 1 ? "file" : "files"} · {formatBytes(collection.size)}
                    </span>
                  </label>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={update.isPending || !collections.isSuccess || collections.data.length === 0}>
            {update.isPending ? <ButtonSpinner /> : null}
            {update.isPending ? "Saving..." : isNew ? "Done" : "Save"}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
