import { CheckCircle2, Download, Loader2, TriangleAlert, Upload } from "lucide-react";
import { type ChangeEvent, useRef } from "react";
import { IMPORT_LIMITS } from "../../../../shared/contracts/chat-transfer.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { exportAllUrl, useImportChats } from "../chat-transfer-api.js";
import { ImportResultText } from "./import-result.js";

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

/** "Your chats": download every saved chat (JSON or Markdown) and import this app's JSON or ChatGPT's conversations.json. */
export function ChatDataCard() {
  const inputRef = useRef<HTMLInputElement>(null);
  const importChats = useImportChats();
  const file = importChats.variables;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = "";
    if (chosen) importChats.mutate(chosen);
  };

  return (
    <div className="grid gap-6">
      <section className="grid gap-3" aria-labelledby="export-chats-heading">
        <div className="space-y-1">
          <h3 id="export-chats-heading" className="font-medium">
            Export
          </h3>
          <p className="text-sm text-muted-foreground">
            Download every saved chat. JSON keeps every branch and can be imported again; Markdown is easy to read. Temporary chats are not
            included.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={exportAllUrl("json")} download>
              <Download aria-hidden="true" />
              Export all chats (JSON)
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={exportAllUrl("markdown")} download>
              <Download aria-hidden="true" />
              Export all chats (Markdown)
            </a>
          </Button>
        </div>
      </section>

      <section className="grid gap-3" aria-labelledby="import-chats-heading">
        <div className="space-y-1">
          <h3 id="import-chats-heading" className="font-medium">
            Import
          </h3>
          <p className="text-sm text-muted-foreground">
            Bring in a JSON export of this app, or the conversations.json from a ChatGPT data export (Settings → Data controls → Export). Up
            to {IMPORT_LIMITS.maxBytes / (1024 * 1024)} MB; chats are added to yours, nothing is replaced.
          </p>
        </div>
        <div>
          <label htmlFor="import-chats-file" className="sr-only">
            Chats file to import
          </label>
          <input ref={inputRef} id="import-chats-file" type="file" accept=".json,application/json" className="hidden" onChange={onFile} />
          <Button onClick={() => inputRef.current?.click()} disabled={importChats.isPending}>
            {importChats.isPending ? <ButtonSpinner /> : <Upload aria-hidden="true" />}
            {importChats.isPending ? "Importing..." : "Import chats"}
          </Button>
        </div>
        {importChats.isPending && file ? (
          <div role="status" className="flex items-center gap-3 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
            <Loader2 aria-hidden="true" className="size-4 shrink-0 animate-spin text-muted-foreground" />
            <span>
              Uploading and importing {file.name} ({megabytes(file.size)}). Large files can take a minute; keep this page open.
            </span>
          </div>
        ) : null}
        {importChats.isSuccess ? (
          <Alert>
            <CheckCircle2 aria-hidden="true" className="text-emerald-600 dark:text-emerald-400" />
            <ImportResultText result={importChats.data} />
          </Alert>
        ) : null}
        {importChats.isError ? <ImportFailed message={errorMessage(importChats.error)} /> : null}
      </section>
    </div>
  );
}

/** A failed import: the server's reason, and what was kept and what to do where the reason does not say it already. */
function ImportFailed({ message }: { message: string }) {
  return (
    <Alert variant="destructive">
      <TriangleAlert aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-medium">
          {/nothing was imported/i.test(message) ? "The import failed." : "The import failed. Nothing was imported."}
        </p>
        <p>{message}</p>
        {/\bchoose\b/i.test(message) ? null : <p>Choose another file, or the same one again once it is fixed.</p>}
      </div>
    </Alert>
  );
}
