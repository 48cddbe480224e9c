import { AlertCircle, Check, Loader2, RefreshCw } from "lucide-react";
import { Button } from "../../../components/ui/button.js";
import type { SaveStatus } from "../use-answer-autosave.js";

/** "Saving…", "Saved", or the failure with Retry: told to screen readers as it changes. */
export function SaveStatusLine({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  return (
    <div className="flex min-h-9 flex-wrap items-center gap-2 text-sm" data-save-state={status.state}>
      <p role="status" aria-live="polite" className="flex items-center gap-2">
        {status.state === "saving" ? (
          <>
            <Loader2 className="size-4 animate-spin text-muted-foreground" aria-hidden="true" />
            <span className="text-muted-foreground">Saving…</span>
          </>
        ) : null}
        {status.state === "saved" ? (
          <>
            <Check className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            <span className="text-muted-foreground">Saved</span>
          </>
        ) : null}
        {status.state === "failed" ? (
          <>
            <AlertCircle className="size-4 shrink-0 text-destructive" aria-hidden="true" />
            <span className="text-destructive">{status.message}</span>
          </>
        ) : null}
        {status.state === "idle" ? <span className="text-muted-foreground">Your answers are saved as you go.</span> : null}
      </p>
      {status.state === "failed" ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Retry
        </Button>
      ) : null}
    </div>
  );
}
