import { Plus } from "lucide-react";
import { useState } from "react";
import type { UserStatus } from "../../../../../shared/contracts/admin-users.js";
import { Button } from "../../../../components/ui/button.js";
import { useCurrentUser } from "../../../../domain/session.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { useDebouncedValue } from "../../../../lib/use-debounced-value.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { useAdminUsers } from "../api.js";
import { CreateUserDialog } from "../components/create-user-dialog.js";
import { DeleteUserDialog } from "../components/delete-user-dialog.js";
import { EditUserDialog } from "../components/edit-user-dialog.js";
import type { UserAction } from "../components/user-actions.js";
import { UsersList } from "../components/users-list.js";
import { UsersSummary } from "../components/users-summary.js";
import { UsersToolbar } from "../components/users-toolbar.js";

/** The server is asked once the admin stops typing for this long. */
const SEARCH_DELAY_MS = 300;

/** /admin/users: User Management: search, status filter, create, edit (role, plan, status) and delete. */
export function UsersPage() {
  usePageTitle("Users", "Admin");
  const { user: me } = useCurrentUser();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<UserStatus | "">("");
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<UserAction | null>(null);
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const list = useAdminUsers({ search: settledSearch, status });
  const selfId = me?.id ?? null;

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">User Management</h1>
            <p className="text-muted-foreground">Create accounts, change roles and plans, disable or delete users.</p>
          </div>
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            Add User
          </Button>
        </div>
        <UsersSummary />
        <UsersToolbar
          search={search}
          onSearch={setSearch}
          status={status}
          onStatus={setStatus}
          searching={search.trim() !== settledSearch || (list.isPlaceholderData && list.isFetching)}
        />
        <UsersList
          list={list}
          filtered={Boolean(settledSearch || status)}
          selfId={selfId}
          onAction={setAction}
          onClear={() => {
            setSearch("");
            setStatus("");
          }}
        />
      </div>
      {creating ? <CreateUserDialog onClose={() => setCreating(false)} /> : null}
      {action?.kind === "edit" ? (
        <EditUserDialog user={action.user} isSelf={action.user.id === selfId} onClose={() => setAction(null)} />
      ) : null}
      {action?.kind === "delete" ? <DeleteUserDialog user={action.user} onClose={() => setAction(null)} /> : null}
    </AdminShell>
  );
}
