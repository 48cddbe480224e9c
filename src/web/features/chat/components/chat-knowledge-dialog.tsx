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

/** The user's collections with a checkbox each; Save sets the chat's `collectionIds` (PATCH /api/chats/{id}). */
export function KnowledgeDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const collections = useQuery(collectionsQuery);
  const update = useUpdateChat();
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(chat.collectionIds));
  const toggle = (id: number, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const save = () =>
    update.mutate(
      { id: chat.id, body: { collectionIds: [...chosen].sort((a, b) => a - b) } },
      { onSuccess: onClose, onError: (error) => notify.error("Could not save the collections", errorMessage(error)) },
    );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Knowledge</DialogTitle>
          <DialogDescription>Every reply in this chat searches the collections you tick and cites what it used.</DialogDescription>
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
            {update.isPending ? "Saving..." : "Save"}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
