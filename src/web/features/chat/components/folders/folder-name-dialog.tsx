import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FOLDER_NAME_MAX, type Folder, folderBodySchema } from "../../../../../shared/contracts/chat-folders.js";
import { Button } from "../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../components/ui/dialog.js";
import { TextField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../lib/form-errors.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { useCreateFolder, useRenameFolder } from "../../folders-api.js";

type Values = z.input<typeof folderBodySchema>;

/** New folder (no `folder`) or rename one. Enter saves; Escape closes, asking first when the name was changed. */
export function FolderNameDialog({
  folder,
  onClose,
  onCreated,
}: {
  folder?: Folder;
  onClose: () => void;
  onCreated?: (folder: Folder) => void;
}) {
  const create = useCreateFolder();
  const rename = useRenameFolder();
  const pending = create.isPending || rename.isPending;
  const form = useForm<Values, unknown, z.output<typeof folderBodySchema>>({
    resolver: zodResolver(folderBodySchema),
    defaultValues: { name: folder?.name ?? "" },
  });
  const failed = (title: string) => (error: unknown) => {
    if (applyServerFieldErrors(form.setError, error, ["name"]).length === 0) notify.error(title, errorMessage(error));
  };
  const persist = async ({ name }: z.output<typeof folderBodySchema>) => {
    if (!folder) {
      return savedOrNot(
        create.mutateAsync(name, {
          onSuccess: (made) => {
            onCreated?.(made);
            onClose();
          },
          onError: failed("The folder could not be made"),
        }),
      );
    }
    if (name === folder.name) {
      onClose();
      return true;
    }
    return savedOrNot(
      rename.mutateAsync({ id: folder.id, name }, { onSuccess: onClose, onError: failed("The folder could not be renamed") }),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{folder ? "Rename folder" : "New folder"}</DialogTitle>
          <DialogDescription>
            {folder
              ? "Give this folder a name you will recognise."
              : "Folders keep related chats together. Drag a chat onto a folder, or use its menu."}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField
            id="folder-name"
            label="Folder name"
            autoComplete="off"
            maxLength={FOLDER_NAME_MAX}
            error={form.formState.errors.name?.message}
            {...form.register("name")}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {pending ? "Saving..." : folder ? "Save" : "Create folder"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
