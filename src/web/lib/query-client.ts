import { QueryClient } from "@tanstack/react-query";

/**
 * Reads never go stale, never retry and never refetch on focus or on an interval. There is no default
 * read: every query comes from `endpointQuery()` (or names `call()` itself), so its key is its endpoint's.
 *
 * A component re-renders on every change of its query's result (`notifyOnChangeProps: "all"`), not only for the
 * fields its last render read: a menu or a dialog drawn later, from a closure over an older result, would
 * otherwise keep it (the personality menu stayed on "Loading personalities..." after the list had come).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      notifyOnChangeProps: "all",
    },
    mutations: { retry: false },
  },
});
