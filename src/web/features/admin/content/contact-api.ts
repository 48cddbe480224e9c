import { type InfiniteData, infiniteQueryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminContactApi as api, type ContactMessage } from "../../../../shared/contracts/contact.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

export type ContactFilter = "all" | "unread";
type Page = { items: ContactMessage[]; nextCursor: string | null };

/**
 * GET /api/admin/contact-messages: newest first, 50 a page (next cursor in the paging header). Read again
 * each time the page opens: new messages arrive at any time.
 */
export const contactMessagesQuery = (filter: ContactFilter) =>
  infiniteQueryOptions({
    queryKey: endpointKey(api.list, { query: { filter } }),
    queryFn: ({ pageParam, signal }) => call(api.list, { query: { filter, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.nextCursor ? Number(last.nextCursor) : null),
    staleTime: 0,
  });

/** GET /api/admin/contact-messages/unread-count. */
export const unreadContactCountQuery = { ...endpointQuery(api.unreadCount, {}), staleTime: 0 };

export function useUnreadContactCount() {
  return useQuery(unreadContactCountQuery);
}

/** Every loaded list (all and unread), changed in place: a message read in the Unread list stays until the next read. */
function updateLists(client: ReturnType<typeof useQueryClient>, change: (items: ContactMessage[]) => ContactMessage[]) {
  client.setQueriesData<InfiniteData<Page>>({ queryKey: endpointKey(api.list) }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: change(page.items) })) } : data,
  );
}

/** PATCH /api/admin/contact-messages/{id}: read or unread. */
export function useMarkContactMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => call(api.update, { params: { id }, body: { read } }),
    onSuccess: (saved) => {
      updateLists(client, (items) => items.map((item) => (item.id === saved.id ? saved : item)));
      void client.invalidateQueries({ queryKey: unreadContactCountQuery.queryKey });
    },
  });
}

/** DELETE /api/admin/contact-messages/{id}. */
export function useDeleteContactMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_nothing, id) => {
      updateLists(client, (items) => items.filter((item) => item.id !== id));
      void client.invalidateQueries({ queryKey: unreadContactCountQuery.queryKey });
    },
  });
}
