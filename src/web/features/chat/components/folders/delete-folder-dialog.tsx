import { useState } from "react";
import type { DeleteFolderMode, Folder } from "../../../../../shared/contracts/chat-folders.js";
import { Button } from "../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { useDeleteFolder } from "../../folders-api.js";

const chatsWord = (n: number) => (n === 1 ? "1 chat" : `${n.toLocaleString()} chats`);

/** Deleting a folder asks what becomes of its chats: they move out to no folder, or are deleted too. */
export function DeleteFolderDialog({
  folder,
  onClose,
  onDeleted,
}: {
  folder: Folder;
  onClose: () => void;
  onDeleted: (mode: DeleteFolderMode) => void;
}) {
  const remove = useDeleteFolder();
  const [mode, setMode] = useState<DeleteFolderMode | null>(null);
  // An empty folder has no chats to ask about: one plain "Delete folder".
  const empty = folder.chatCount === 0;
  const run = (chats: DeleteFolderMode) => {
    setMode(chats);
    remove.mutate(
      { id: folder.id, chats },
      {
        onSuccess: () => {
          onDeleted(chats);
          onClose();
          notify.success(
            empty ? "Folder deleted" : chats === "move" ? "Folder deleted; its chats moved out" : "Folder and its chats deleted",
          );
        },
        onError: (error) => notify.error("The folder could not be deleted", errorMessage(error)),
      },
    );
  };
  const pending = remove.isPending;
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete “{folder.name}”?</DialogTitle>
          <DialogDescription>
            {folder.chatCount === 0
              ? "This folder is empty."
              : `This folder holds ${chatsWord(folder.chatCount)}. Move them out to your other chats, or delete them with the folder (this cannot be undone).`}
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant={empty ? "destructive" : "secondary"} disabled={pending} onClick={() => run("move")}>
            {pending && mode === "move" ? <ButtonSpinner /> : null}
            {empty ? "Delete folder" : "Move chats out"}
          </Button>
          {folder.chatCount > 0 ? (
            <Button variant="destructive" disabled={pending} onClick={() => run("delete")}>
              {pending && mode === "delete" ? <ButtonSpinner /> : null}
              Delete chats too
            </Button>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
