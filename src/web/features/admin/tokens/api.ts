import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminTokensApi } from "../../../../shared/contracts/api-tokens.js";
import { call, endpointKey } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/tokens: every live personal API token, with its owner (issue 35). */
export function useAdminTokens() {
  return useQuery(endpointQuery(adminTokensApi.list, {}));
}

/** DELETE /api/admin/tokens/:id: the token stops working at once. */
export function useAdminRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(adminTokensApi.revoke, { params: { id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: endpointKey(adminTokensApi.list) }),
  });
}
