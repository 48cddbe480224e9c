import { infiniteQueryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { emailOutboxApi as api, OUTBOX_PAGE_SIZE, type OutboxStatus } from "../../../../shared/contracts/email-outbox.js";
import { call, endpointKey, errorMessage } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { notify } from "../../../lib/notify.js";

/** GET /api/admin/email-outbox: newest first, page by page (next cursor in X-Next-Cursor); read fresh each time. */
export const outboxQuery = (status: OutboxStatus | undefined) =>
  infiniteQueryOptions({
    queryKey: endpointKey(api.list, { query: { status, limit: OUTBOX_PAGE_SIZE } }),
    queryFn: ({ pageParam, signal }) =>
      call(api.list, { query: { status, limit: OUTBOX_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor || null,
    staleTime: 0,
  });

/** One stored email with its bodies (the preview page). */
export const outboxEmailQuery = (id: number) => ({ ...endpointQuery(api.get, { params: { id } }), staleTime: 0 });

/** POST /api/admin/email-outbox/:id/resend: back in the queue now; the list and that preview are read again. */
export function useResendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.resend, { params: { id } }),
    onSuccess: (email) => {
      notify.success("Email queued", `It will be sent to ${email.to} in a moment.`);
      void queryClient.invalidateQueries({ queryKey: endpointKey(api.list) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(api.get, { params: { id: email.id } }) });
    },
    onError: (error) => notify.error("Failed to resend email", errorMessage(error)),
  });
}
