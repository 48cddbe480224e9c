import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type CreateTokenBody, tokensApi } from "../../../shared/contracts/api-tokens.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";

/** GET /api/tokens: the user's live personal API tokens (issue 35). */
export function useApiTokens() {
  return useQuery(endpointQuery(tokensApi.list, {}));
}

function useRefreshTokens() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: endpointKey(tokensApi.list) });
}

/** POST /api/tokens: answers the token itself, this once. */
export function useCreateApiToken() {
  const refresh = useRefreshTokens();
  return useMutation({ mutationFn: (body: CreateTokenBody) => call(tokensApi.create, { body }), onSuccess: refresh });
}

/** DELETE /api/tokens/:id: the token stops working at once. */
export function useRevokeApiToken() {
  const refresh = useRefreshTokens();
  return useMutation({ mutationFn: (id: number) => call(tokensApi.revoke, { params: { id } }), onSuccess: refresh });
}
