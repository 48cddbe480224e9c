import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { SHARES_PAGE_SIZE, sharesApi } from "../../shared/contracts/sharing.js";
import { call, endpointKey } from "../lib/api-client.js";

/**
 * The signed-in user's share links (issue 33): read and changed from the chat's Share dialog (one chat's) and from
 * Settings > Shared links (all of them). Every change reads every cached list again.
 */
export const shareLinksQuery = (chatId?: number) => {
  const query = { limit: SHARES_PAGE_SIZE, chatId };
  return infiniteQueryOptions({
    queryKey: endpointKey(sharesApi.list, { query }),
    queryFn: ({ pageParam, signal }) => call(sharesApi.list, { query: { ...query, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.nextCursor ? Number(last.nextCursor) : null),
  });
};

export function useShareLinks(chatId?: number) {
  return useInfiniteQuery(shareLinksQuery(chatId));
}
export type ShareLinksResult = ReturnType<typeof useShareLinks>;

function useRefreshLinks() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: endpointKey(sharesApi.list) });
}

/** POST /api/chats/:id/shares */
export function useCreateShareLink() {
  const refresh = useRefreshLinks();
  return useMutation({
    mutationFn: ({ chatId, showAuthor }: { chatId: number; showAuthor: boolean }) =>
      call(sharesApi.create, { params: { id: chatId }, body: { showAuthor } }),
    onSuccess: refresh,
  });
}

/** PUT /api/shares/:token: a new snapshot of the branch shown now, and the show-my-name choice. */
export function useUpdateShareLink() {
  const refresh = useRefreshLinks();
  return useMutation({
    mutationFn: ({ token, showAuthor }: { token: string; showAuthor?: boolean }) =>
      call(sharesApi.update, { params: { token }, body: showAuthor === undefined ? {} : { showAuthor } }),
    onSuccess: refresh,
  });
}

/** DELETE /api/shares/:token */
export function useRevokeShareLink() {
  const refresh = useRefreshLinks();
  return useMutation({
    mutationFn: (token: string) => call(sharesApi.revoke, { params: { token } }),
    onSuccess: refresh,
  });
}
