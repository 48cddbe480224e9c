import { RefreshCw, SearchX } from "lucide-react";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadMoreFooter } from "../../../../components/ui/load-more.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import type { AdminUsersResult } from "../api.js";
import type { UserAction } from "./user-actions.js";
import { UsersTable } from "./users-table.js";

function Failed({ error, retry, busy }: { error: unknown; retry: () => void; busy: boolean }) {
  return (
    <Card>
      <CardContent className="grid justify-items-start gap-3 pt-6">
        <p className="font-medium">Failed to load users.</p>
        <p className="text-sm text-muted-foreground">{errorMessage(error)} Check your connection, then try again.</p>
        <Button variant="outline" onClick={retry} disabled={busy}>
          <RefreshCw aria-hidden="true" className={busy ? "animate-spin" : undefined} />
          Retry
        </Button>
      </CardContent>
    </Card>
  );
}

function Empty({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Card>
      <CardContent className="grid justify-items-center gap-2 py-10 text-center">
        <SearchX aria-hidden="true" className="size-8 text-muted-foreground" />
        <p className="font-medium">No users found.</p>
        <p className="text-sm text-muted-foreground">
          {filtered ? "No account matches this search and status. Try other words or another status." : "Add the first one with Add User."}
        </p>
        {filtered ? (
          <Button variant="outline" size="sm" onClick={onClear}>
            Clear search and filter
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The users matching the search and status, 25 at a time with Load more; loading, failure and empty states. */
export function UsersList({
  list,
  filtered,
  selfId,
  onAction,
  onClear,
}: {
  list: AdminUsersResult;
  filtered: boolean;
  selfId: number | null;
  onAction: (action: UserAction) => void;
  onClear: () => void;
}) {
  const refreshing = list.isFetching && !list.isFetchingNextPage;
  if (list.isPending) {
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
        <Spinner label="Loading users..." />
        <span aria-hidden="true">Loading users...</span>
      </div>
    );
  }
  if (list.isError && !list.data) return <Failed error={list.error} retry={() => void list.refetch()} busy={list.isFetching} />;
  const users = list.data?.pages.flatMap((page) => page.items) ?? [];
  if (users.length === 0) return <Empty filtered={filtered} onClear={onClear} />;
  return (
    <div className="grid gap-3">
      <Card className="overflow-hidden" aria-busy={refreshing}>
        <UsersTable users={users} selfId={selfId} onAction={onAction} />
      </Card>
      <LoadMoreFooter list={list} shown={users.length} noun={{ one: "user", many: "users" }} />
    </div>
  );
}
