import { RefreshCw } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Button } from "../components/ui/button.js";
import { type PublicReads, PublicReadsContext } from "../domain/public-reads.js";

type Props = { children: ReactNode; resetKey: string };
type State = { error: Error | null };

/** A page's code could not load (usually a newer version was deployed) or a screen crashed. */
function isChunkLoadError(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message);
}

/** Keeps one failing screen from blanking the app; moving to another page clears it. */
export class ErrorBoundary extends Component<Props, State> {
  static override contextType = PublicReadsContext;
  declare context: PublicReads | null;
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn("Screen failed to render", error, info.componentStack);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const stale = isChunkLoadError(error);
    // The product name only when already read (nothing is fetched from a failed screen).
    const name = this.context?.knownPlatformName();
    return (
      <div role="alert" className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
        <h1 className="text-xl font-semibold">{stale ? `${name ?? "The app"} has been updated` : "Something went wrong on this page"}</h1>
        <p className="max-w-md text-sm text-muted-foreground">
          {stale
            ? "This page needs the newest version of the app. Reload to continue; nothing you saved is lost."
            : "Reload the page to try again. If it keeps happening, go back to the dashboard."}
        </p>
        <Button onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" />
          Reload
        </Button>
      </div>
    );
  }
}
