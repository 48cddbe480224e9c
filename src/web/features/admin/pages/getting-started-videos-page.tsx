import { AdminShell } from "../components/admin-shell.js";

/** Getting Started Videos (being built). */
export function GettingStartedVideosPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">Getting Started Videos</h1>
    </AdminShell>
  );
}
