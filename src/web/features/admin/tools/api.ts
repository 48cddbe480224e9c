import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type AdminMcpServer,
  mcpServersApi as api,
  type CreateMcpServerBody,
  type TestMcpServerBody,
  type UpdateMcpServerBody,
} from "../../../../shared/contracts/mcp-servers.js";
import { call } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/mcp-servers: every server with its tools and last result, never a header value. */
export const mcpServersQuery = endpointQuery(api.list, {});

/** Puts a saved server into the cached list at once (or takes a deleted one out), then reads the list again. */
function useStoreServer() {
  const client = useQueryClient();
  return (saved: AdminMcpServer | { id: number; deleted: true }) => {
    client.setQueryData(mcpServersQuery.queryKey, (list) => {
      if (!list) return list;
      if ("deleted" in saved) return list.filter((s) => s.id !== saved.id);
      return list.some((s) => s.id === saved.id) ? list.map((s) => (s.id === saved.id ? saved : s)) : [...list, saved];
    });
    void client.invalidateQueries({ queryKey: mcpServersQuery.queryKey });
  };
}

export function useCreateMcpServer() {
  const store = useStoreServer();
  return useMutation({ mutationFn: (body: CreateMcpServerBody) => call(api.create, { body }), onSuccess: store });
}

export function useUpdateMcpServer() {
  const store = useStoreServer();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateMcpServerBody }) => call(api.update, { params: { id }, body }),
    onSuccess: store,
  });
}

export function useDeleteMcpServer() {
  const store = useStoreServer();
  return useMutation({
    mutationFn: (id: number) => call(api.remove, { params: { id } }),
    onSuccess: (_answer, id) => store({ id, deleted: true }),
  });
}

/** POST .../refresh: passed or failed, the server keeps the result, so the list is read again either way. */
export function useRefreshMcpServer() {
  const store = useStoreServer();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.refresh, { params: { id } }),
    onSuccess: store,
    onError: () => void client.invalidateQueries({ queryKey: mcpServersQuery.queryKey }),
  });
}

/** POST /api/admin/mcp-servers/test: tries a URL and headers without saving anything. */
export function useTestMcpServer() {
  return useMutation({ mutationFn: (body: TestMcpServerBody) => call(api.test, { body }) });
}
