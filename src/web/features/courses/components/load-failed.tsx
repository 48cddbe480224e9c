import { RefreshCw } from "lucide-react";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { errorMessage } from "../../../lib/api-client.js";

/** A read that failed for a reason other than 403/404: what happened, and Retry. */
export function LoadFailed({ what, error, retrying, onRetry }: { what: string; error: unknown; retrying: boolean; onRetry: () => void }) {
  return (
    <Card className="mx-auto max-w-xl">
      <CardContent className="grid justify-items-start gap-3 pt-6">
        <p className="font-medium">Failed to load the {what}.</p>
        <p className="text-sm text-muted-foreground">{errorMessage(error)}</p>
        <Button variant="outline" onClick={onRetry} disabled={retrying}>
          <RefreshCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
          Retry
        </Button>
      </CardContent>
    </Card>
  );
}
