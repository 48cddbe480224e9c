import { RefreshCw } from "lucide-react";
import { errorMessage } from "../../lib/api-client.js";
import { cn } from "../../lib/cn.js";
import { Button } from "./button.js";
import { Card, CardContent } from "./card.js";

/** A read that failed: the page's own title (the product's wording), the server's reason, what to do, and Retry. */
export function LoadFailed({
  title,
  error,
  advice,
  retrying,
  onRetry,
  className,
}: {
  title: string;
  error: unknown;
  advice?: string;
  retrying: boolean;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <Card className={cn(className)}>
      <CardContent className="grid justify-items-start gap-3 pt-6">
        <p className="font-medium">{title}</p>
        <p className="text-sm text-muted-foreground">
          {errorMessage(error)}
          {advice ? ` ${advice}` : null}
        </p>
        <Button variant="outline" onClick={onRetry} disabled={retrying}>
          <RefreshCw aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
          Retry
        </Button>
      </CardContent>
    </Card>
  );
}
