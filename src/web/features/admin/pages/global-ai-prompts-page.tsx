import { AdminShell } from "../components/admin-shell.js";

/** Global AI Prompts (being built). */
export function GlobalAiPromptsPage() {
  return (
    <AdminShell>
      <h1 className="text-2xl font-bold tracking-tight">Global AI Prompts</h1>
    </AdminShell>
  );
}
