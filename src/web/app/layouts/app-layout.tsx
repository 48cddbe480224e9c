import type { ReactNode } from "react";
import { useCurrentUser } from "../../domain/session.js";
import { TopNav } from "../../features/shell/components/top-nav.js";

/** The signed-in shell: top navigation above the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return (
    <div className="flex min-h-screen flex-col">
      {user ? <TopNav user={user} /> : null}
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 md:py-8">{children}</main>
    </div>
  );
}
