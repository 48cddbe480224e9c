import { Pencil, Trash2 } from "lucide-react";
import { ADMIN_USER_REFUSALS, type AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { Button } from "../../../../components/ui/button.js";

export type UserAction = { kind: "edit" | "delete"; user: AdminUser };

/** Edit and Delete for one user; an admin's own account cannot be deleted (the server refuses it too). */
export function UserActions({ user, isSelf, onAction }: { user: AdminUser; isSelf: boolean; onAction: (action: UserAction) => void }) {
  return (
    <div className="flex items-center justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        className="size-9"
        aria-label={`Edit ${user.username}`}
        onClick={() => onAction({ kind: "edit", user })}
      >
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Delete ${user.username}`}
        title={isSelf ? ADMIN_USER_REFUSALS.deleteSelf : undefined}
        disabled={isSelf}
        onClick={() => onAction({ kind: "delete", user })}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}
