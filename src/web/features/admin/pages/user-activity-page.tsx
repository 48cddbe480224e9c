import { AdminShell } from "../components/admin-shell.js";

/** User Activity (being built). */
export function UserActivityPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">User Activity</h1>
    </AdminShell>
  );
}
