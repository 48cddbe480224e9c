import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ToasterHost } from "../components/ui/toaster-host.js";
import { queryClient } from "../lib/query-client.js";
import { ThemeProvider } from "./theme-provider.js";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <ToasterHost />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
