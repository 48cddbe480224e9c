import { infiniteQueryOptions } from "@tanstack/react-query";
import { ACTIVITY_PAGE_SIZE, type ActivityFiltersInput, activityApi as api } from "../../../../shared/contracts/activity.js";
import { call, endpointKey, endpointUrl } from "../../../lib/api-client.js";

/** The browser's UTC offset in minutes east (UTC+2 → 120): the server counts "Today" in the admin's own days. */
export function browserTzOffset(): number {
  return -new Date().getTimezoneOffset();
}

/** What the page filters by, as the query string carries it (empty values left out). */
export function activityFilters(input: { search: string; action: string; date: string }): ActivityFiltersInput {
  return {
    search: input.search.trim() || undefined,
    action: (input.action || undefined) as ActivityFiltersInput["action"],
    date: (input.date || undefined) as ActivityFiltersInput["date"],
    tz: browserTzOffset(),
  };
}

/**
 * GET /api/admin/user-activity-logs: newest first, page by page (next cursor in X-Next-Cursor). Read again each
 * time the page opens: a log is only useful fresh.
 */
export const activityQuery = (filters: ActivityFiltersInput) =>
  infiniteQueryOptions({
    queryKey: endpointKey(api.list, { query: { ...filters, limit: ACTIVITY_PAGE_SIZE } }),
    queryFn: ({ pageParam, signal }) =>
      call(api.list, { query: { ...filters, limit: ACTIVITY_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor || null,
    staleTime: 0,
  });

/** The address of the CSV export with the same filters: the browser downloads it itself, with the session cookie. */
export function activityExportUrl(filters: ActivityFiltersInput): string {
  return endpointUrl(api.exportCsv, { query: filters });
}
