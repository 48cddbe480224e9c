import { RefreshCw } from "lucide-react";
import { Button } from "../components/ui/button.js";
import { usePublicReads } from "../domain/public-reads.js";

/** Shown when the session could not be read at all (server unreachable), with a way to try again. */
export function SessionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  // The product name only when already read: the server is out of reach, so nothing is fetched for it.
  const name = usePublicReads().knownPlatformName();
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-xl font-semibold">{name ? `We could not reach ${name}` : "We could not reach the server"}</h1>
      <p className="max-w-md text-sm text-muted-foreground">{message} Check your connection, then try again.</p>
      <Button onClick={onRetry}>
        <RefreshCw aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
