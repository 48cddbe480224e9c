import { AdminShell } from "../components/admin-shell.js";

/** Platform Settings (being built). */
export function PlatformSettingsPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">Platform Settings</h1>
    </AdminShell>
  );
}
