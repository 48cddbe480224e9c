import { Download, FileJson, FileText } from "lucide-react";
import { chatTransferApi, type ExportFormat } from "../../../../shared/contracts/chat-transfer.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";
import { endpointUrl } from "../../../lib/api-client.js";

/** GET /api/chats/{id}/export: the download of one chat (the server names the file after the title). */
const exportUrl = (id: number, format: ExportFormat) => endpointUrl(chatTransferApi.exportOne, { params: { id }, query: { format } });

/** "Export chat" in the chat header: the chat as Markdown (the branch shown) or JSON (every branch). */
export function ExportChatMenu({ chatId }: { chatId: number }) {
  return (
    <LazyDropdownMenu
      trigger={
        <Button variant="ghost" size="icon" className="size-9 shrink-0" aria-label="Export chat" title="Export chat">
          <Download className="size-5" aria-hidden="true" />
        </Button>
      }
    >
      {(ui) => (
        <ui.DropdownMenuContent align="end">
          <ui.DropdownMenuLabel className="text-muted-foreground">Export chat</ui.DropdownMenuLabel>
          <ui.DropdownMenuItem asChild>
            <a href={exportUrl(chatId, "markdown")} download>
              <FileText aria-hidden="true" />
              As Markdown
            </a>
          </ui.DropdownMenuItem>
          <ui.DropdownMenuItem asChild>
            <a href={exportUrl(chatId, "json")} download>
              <FileJson aria-hidden="true" />
              As JSON (all branches)
            </a>
          </ui.DropdownMenuItem>
        </ui.DropdownMenuContent>
      )}
    </LazyDropdownMenu>
  );
}
