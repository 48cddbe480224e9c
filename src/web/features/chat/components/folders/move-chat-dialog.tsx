import { useQuery } from "@tanstack/react-query";
import { Check, Folder as FolderIcon, FolderX } from "lucide-react";
import { shownTitle } from "../../../../../shared/chat-title.js";
import type { Chat } from "../../../../../shared/contracts/chat.js";
import { Button } from "../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../components/ui/dialog.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { cn } from "../../../../lib/cn.js";
import { foldersQuery } from "../../folders-api.js";

/** "Move to folder...": the caller's folders and "No folder"; picking one moves the chat (the keyboard way of dragging). */
export function MoveChatDialog({
  chat,
  onMove,
  onNewFolder,
  onClose,
}: {
  chat: Chat;
  onMove: (folderId: number | null) => void;
  onNewFolder: () => void;
  onClose: () => void;
}) {
  const folders = useQuery(foldersQuery);
  const choices = [{ id: null, name: "No folder" }, ...(folders.data ?? [])];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Move to folder</DialogTitle>
          <DialogDescription>Where should “{shownTitle(chat.title)}” go?</DialogDescription>
        </DialogHeader>
        {folders.isPending ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner className="size-4" label="Loading folders" />
            Loading folders...
          </p>
        ) : folders.isError ? (
          <p className="text-sm text-destructive">
            Your folders could not be loaded: {errorMessage(folders.error)} Close this and try again.
          </p>
        ) : (
          <ul aria-label="Folders" className="grid max-h-72 gap-1 overflow-y-auto">
            {choices.map((choice) => {
              const current = chat.folderId === choice.id;
              const Icon = choice.id === null ? FolderX : FolderIcon;
              return (
                <li key={choice.id ?? "none"}>
                  <button
                    type="button"
                    aria-current={current ? "true" : undefined}
                    onClick={() => (current ? onClose() : onMove(choice.id))}
                    className={cn(
                      "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                      current && "bg-accent/60",
                    )}
                  >
                    <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="truncate">{choice.name}</span>
                    {current ? <Check className="ml-auto size-4" aria-label="Current folder" /> : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {folders.data?.length === 0 ? <p className="text-sm text-muted-foreground">You have no folders yet.</p> : null}
        <div className="flex justify-between gap-2">
          <Button variant="outline" onClick={onNewFolder}>
            New folder
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
