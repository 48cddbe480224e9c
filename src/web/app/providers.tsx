import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useSyncExternalStore } from "react";
import { ToasterHost } from "../components/ui/toaster-host.js";
import { queryClient } from "../lib/query-client.js";
import { ThemeProvider } from "./theme-provider.js";

const noSubscription = () => () => {};

/**
 * Toasts live in the browser only: nothing of them is prerendered (scripts/prerender.ts), and a hydrating
 * page mounts them right after it has taken over the server's HTML.
 */
function BrowserToaster() {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return inBrowser ? <ToasterHost /> : null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <BrowserToaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
