import { Button } from "./button.js";
import { ButtonSpinner } from "./spinner.js";

/** The paging state of an infinite list (React Query's `useInfiniteQuery` result has these fields). */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * Under a paged list: how many are shown (and whether that is all), "Load more" while there are more, and a
 * clear line when the next page failed (the button tries again).
 */
export function LoadMoreFooter({ list, shown, noun }: { list: PagedList; shown: number; noun: { one: string; many: string } }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing {shown} {shown === 1 ? noun.one : noun.many}
        {list.hasNextPage ? "" : " (all)"}
      </p>
      {list.isFetchNextPageError ? (
        <p role="alert" className="text-sm text-destructive">
          Failed to load more {noun.many}. Please try again.
        </p>
      ) : null}
      {list.hasNextPage ? (
        <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? <ButtonSpinner /> : null}
          {list.isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}
