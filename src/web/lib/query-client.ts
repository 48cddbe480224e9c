import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiGet, type On401 } from "./api-client.js";

/** The default data read: the first element of the query key is the URL (spec 000 section 7). */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T | null> {
  return async ({ queryKey }) => apiGet<T>(String(queryKey[0]), on401);
}

/** Reads never go stale, never retry and never refetch on focus or on an interval. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: "throw" }),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
    },
    mutations: { retry: false },
  },
});
