import { Download, FileJson, FileText } from "lucide-react";
import { chatExportAddress } from "../../../../shared/contracts/chat-export-address.js";
import type { ExportFormat } from "../../../../shared/contracts/chat-transfer.js";
import { fillPath, queryString } from "../../../../shared/contracts/endpoint.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";

/**
 * GET /api/chats/{id}/export: the download of one chat (the server names the file after the title). Built from the
 * address alone, so the chat's first screen loads no transfer schemas (decision 041).
 */
const exportUrl = (id: number, format: ExportFormat) => fillPath(chatExportAddress.path, { id }) + queryString({ format });

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
