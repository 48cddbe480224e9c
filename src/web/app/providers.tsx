import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ToasterHost } from "../components/ui/toaster-host.js";
import { UnsavedChangesHost } from "../components/unsaved-changes-host.js";
import { queryPublicReads } from "../domain/public-queries.js";
import { PublicReadsContext } from "../domain/public-reads.js";
import { queryClient } from "../lib/query-client.js";
import { handleEndedSessions } from "./session-ended.js";
import { ThemeProvider } from "./theme-provider.js";

handleEndedSessions(queryClient);

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PublicReadsContext value={queryPublicReads}>
        <ThemeProvider>
          {children}
          <ToasterHost />
          <UnsavedChangesHost />
        </ThemeProvider>
      </PublicReadsContext>
    </QueryClientProvider>
  );
}
