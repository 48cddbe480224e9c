import { useMutation, useQueryClient } from "@tanstack/react-query";
import { chatsApi } from "../../../shared/contracts/chat.js";
import { chatTransferApi, type ExportFormat } from "../../../shared/contracts/chat-transfer.js";
import { call, endpointKey, endpointUrl } from "../../lib/api-client.js";

/** GET /api/chats/export: the address of the download of every saved chat (the server names the file). */
export const exportAllUrl = (format: ExportFormat) => endpointUrl(chatTransferApi.exportAll, { query: { format } });

/** POST /api/chats/import (multipart, field "file"); the history shows the new chats at once. */
export function useImportChats() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const data = new FormData();
      data.append("file", file);
      return call(chatTransferApi.import, { body: data });
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: endpointKey(chatsApi.list) });
      void client.invalidateQueries({ queryKey: endpointKey(chatsApi.search) });
    },
  });
}
