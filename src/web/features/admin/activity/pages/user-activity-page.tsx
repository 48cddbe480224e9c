import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { LoadMoreFooter } from "../../../../components/ui/load-more.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { cn } from "../../../../lib/cn.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { useDebouncedValue } from "../../../../lib/use-debounced-value.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { activityExportUrl, activityFilters, activityQuery } from "../api.js";
import { type ActivityFilterState, ActivityFilters } from "../components/activity-filters.js";
import { ActivityTable } from "../components/activity-table.js";

const NO_FILTERS: ActivityFilterState = { search: "", action: "", date: "" };

/** /admin/user-activity: the sign-in and account log, filtered and paged on the server, exportable as CSV. */
export function UserActivityPage() {
  usePageTitle("User Activity", "Admin");
  const [filters, setFilters] = useState<ActivityFilterState>(NO_FILTERS);
  const search = useDebouncedValue(filters.search, 300);
  const query = useMemo(() => activityFilters({ ...filters, search }), [filters, search]);
  const list = useInfiniteQuery({ ...activityQuery(query), placeholderData: keepPreviousData });
  const logs = list.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Boolean(filters.search.trim() || filters.action || filters.date);
  const updating = (list.isFetching && !list.isFetchingNextPage && !list.isPending) || search !== filters.search;

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">User Activity</h1>
          <p className="text-muted-foreground">Sign-ins, failed attempts and account changes, newest first.</p>
        </div>
        <ActivityFilters value={filters} onChange={setFilters} exportUrl={activityExportUrl(query)} busy={updating} />
        {list.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading activity..." />
            <span aria-hidden="true">Loading activity...</span>
          </div>
        ) : list.isError && logs.length === 0 ? (
          <LoadFailed
            title="Failed to load activity. Please try again."
            error={list.error}
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        ) : logs.length === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-4 py-12 text-center">
              <History className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground">{filtered ? "No activity matches these filters." : "No activity recorded yet."}</p>
              {filtered ? (
                <Button variant="outline" onClick={() => setFilters(NO_FILTERS)}>
                  Clear filters
                </Button>
              ) : null}
            </CardContent>
          </Card>
        ) : (
          <div className={cn("grid gap-4 transition-opacity", updating && "opacity-60")}>
            <ActivityTable logs={logs} />
            <LoadMoreFooter list={list} shown={logs.length} noun={{ one: "entry", many: "entries" }} />
          </div>
        )}
      </div>
    </AdminShell>
  );
}
