import { AdminShell } from "../components/admin-shell.js";

/** Users (being built). */
export function UsersPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">Users</h1>
    </AdminShell>
  );
}
