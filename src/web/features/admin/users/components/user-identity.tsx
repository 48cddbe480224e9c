import type { AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { UserAvatar } from "../../../../components/user-avatar.js";

/** Avatar, name (or username), then username and email underneath (on one line, or two when `stacked`). */
export function UserIdentity({ user, isSelf, stacked = false }: { user: AdminUser; isSelf: boolean; stacked?: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <UserAvatar user={user} className="size-9 shrink-0" />
      <div className="min-w-0">
        <p className="truncate font-medium">
          {user.name?.trim() || user.username}
          {isSelf ? <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span> : null}
        </p>
        {stacked ? (
          <>
            <p className="truncate text-xs text-muted-foreground">@{user.username}</p>
            {user.email ? <p className="truncate text-xs text-muted-foreground">{user.email}</p> : null}
          </>
        ) : (
          <p className="truncate text-xs text-muted-foreground" title={user.email ?? undefined}>
            @{user.username}
            {user.email ? ` · ${user.email}` : ""}
          </p>
        )}
      </div>
    </div>
  );
}
