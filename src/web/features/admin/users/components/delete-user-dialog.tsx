import type { AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { notify } from "../../../../lib/notify.js";
import { useDeleteUser } from "../api.js";
import { displayNameOf } from "./user-format.js";

/** The product's delete confirmation, plus what goes with the account. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const remove = useDeleteUser();
  const name = displayNameOf(user);
  return (
    <ConfirmDialog
      title="Are you sure?"
      message={`This will permanently delete the user ${name}. This action cannot be undone. Their chats, personalities and courses, public courses included, are deleted too.`}
      confirmLabel="Delete User"
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(user.id, {
          onSuccess: () => {
            onClose();
            notify.success("User deleted", `${name} and everything they owned are gone.`);
          },
          onError: (error) => notify.error("Error deleting user", errorMessage(error)),
        })
      }
    />
  );
}
