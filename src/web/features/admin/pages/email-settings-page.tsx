import { AdminShell } from "../components/admin-shell.js";

/** Email Settings (being built). */
export function EmailSettingsPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">Email Settings</h1>
    </AdminShell>
  );
}
