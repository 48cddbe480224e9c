import { QueryClient } from "@tanstack/react-query";

/**
 * Reads never go stale, never retry and never refetch on focus or on an interval. There is no default
 * read: every query comes from `endpointQuery()` (or names `call()` itself), so its key is its endpoint's.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
    },
    mutations: { retry: false },
  },
});
