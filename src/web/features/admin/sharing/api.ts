import { infiniteQueryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { adminSharesApi as api, SHARES_PAGE_SIZE } from "../../../../shared/contracts/sharing.js";
import { call, endpointKey } from "../../../lib/api-client.js";

/** GET /api/admin/shares: every share link, newest first, page by page. */
export const adminSharesQuery = infiniteQueryOptions({
  queryKey: endpointKey(api.list, { query: { limit: SHARES_PAGE_SIZE } }),
  queryFn: ({ pageParam, signal }) => call(api.list, { query: { limit: SHARES_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
  initialPageParam: null as number | null,
  getNextPageParam: (last) => (last.nextCursor ? Number(last.nextCursor) : null),
});

/** DELETE /api/admin/shares/:token: any user's link stops working at once. */
export function useAdminRevokeShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(api.revoke, { params: { token } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: endpointKey(api.list) }),
  });
}
