import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import {
  type AdminUser,
  adminUsersApi as api,
  type CreateAdminUserBody,
  type UpdateAdminUserBody,
  type UserStatus,
} from "../../../../shared/contracts/admin-users.js";
import { currentUserQuery } from "../../../domain/session.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** Rows per "Load more". */
export const USERS_PAGE_SIZE = 25;

export type UsersFilter = { search: string; status: UserStatus | "" };

/** GET /api/admin/users, newest first, page by page (the next cursor comes in x-next-cursor). */
export const adminUsersQuery = ({ search, status }: UsersFilter) => {
  const query = { search: search || undefined, status: status || undefined, limit: USERS_PAGE_SIZE };
  return infiniteQueryOptions({
    queryKey: endpointKey(api.list, { query }),
    queryFn: ({ pageParam, signal }) => call(api.list, { query: { ...query, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.nextCursor ? Number(last.nextCursor) : null),
    // A new search keeps the previous rows on screen until its answer arrives (no flash of a spinner per keystroke).
    placeholderData: keepPreviousData,
  });
};

/** The list for a search and a status, with its pages, loading and error states. */
export function useAdminUsers(filter: UsersFilter) {
  return useInfiniteQuery(adminUsersQuery(filter));
}
export type AdminUsersResult = ReturnType<typeof useAdminUsers>;

/** GET /api/admin/users/summary: read when the page opens and after a change, never per keystroke. */
export const adminUserSummaryQuery = endpointQuery(api.summary, {});

type UserPages = InfiniteData<{ items: AdminUser[]; nextCursor: string | null }, unknown>;

/** Every cached list (each search and filter) and the summary are read again. */
function refreshLists(client: QueryClient) {
  void client.invalidateQueries({ queryKey: endpointKey(api.list) });
  void client.invalidateQueries({ queryKey: adminUserSummaryQuery.queryKey });
}

/** The saved user in place in every cached list at once, before the lists are read again. */
function storeUser(client: QueryClient, saved: AdminUser) {
  client.setQueriesData<UserPages>({ queryKey: endpointKey(api.list) }, (old) =>
    old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: page.items.map((u) => (u.id === saved.id ? saved : u)) })) } : old,
  );
}

/** POST /api/admin/users. */
export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAdminUserBody) => call(api.create, { body }),
    onSuccess: () => refreshLists(client),
  });
}

/** PATCH /api/admin/users/{id}: only the changed fields. The admin editing their own account sees it everywhere. */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateAdminUserBody }) => call(api.update, { params: { id }, body }),
    onSuccess: (saved) => {
      storeUser(client, saved);
      refreshLists(client);
      if (client.getQueryData(currentUserQuery.queryKey)?.id === saved.id)
        void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
    },
  });
}

/** DELETE /api/admin/users/{id}. */
export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      client.setQueriesData<UserPages>({ queryKey: endpointKey(api.list) }, (old) =>
        old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: page.items.filter((u) => u.id !== id) })) } : old,
      );
      refreshLists(client);
    },
  });
}
