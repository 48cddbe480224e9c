import { useMutation, useQueryClient } from "@tanstack/react-query";
import { chatsApi } from "../../../shared/contracts/chat.js";
import { sharesApi } from "../../../shared/contracts/sharing.js";
import { call, endpointKey } from "../../lib/api-client.js";

/** POST /api/shares/:token/continue: the snapshot copied into the caller's account as a new chat (its id). */
export function useContinueSharedChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(sharesApi.continue, { params: { token } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: endpointKey(chatsApi.list) }),
  });
}
