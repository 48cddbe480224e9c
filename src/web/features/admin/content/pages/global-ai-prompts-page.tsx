import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import type { AiPrompt } from "../../../../../shared/contracts/ai-prompts.js";
import { Button } from "../../../../components/ui/button.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { DeletePromptDialog } from "../components/prompts/delete-prompt-dialog.js";
import { ProductKeys } from "../components/prompts/product-keys.js";
import { PromptDialog } from "../components/prompts/prompt-dialog.js";
import { PromptsTable } from "../components/prompts/prompts-table.js";
import { aiPromptsQuery } from "../prompts-api.js";

type Editing = { mode: "new"; key?: string } | { mode: "edit"; prompt: AiPrompt } | null;

/** /admin/global-ai-prompts: the system prompts looked up by key, with add, edit and delete. */
export function GlobalAiPromptsPage() {
  usePageTitle("Global AI Prompts", "Admin");
  const prompts = useQuery(aiPromptsQuery);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AiPrompt | null>(null);

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">Global AI Prompts</h1>
            <p className="text-muted-foreground">System prompts the product sends to the AI, looked up by key.</p>
          </div>
          <Button onClick={() => setEditing({ mode: "new" })}>
            <Plus aria-hidden="true" />
            Add New Prompt
          </Button>
        </div>
        {prompts.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading AI prompts..." />
            <span aria-hidden="true">Loading AI prompts...</span>
          </div>
        ) : prompts.isError ? (
          <LoadFailed
            title="Failed to load AI prompts."
            error={prompts.error}
            advice="Check your connection, then try again."
            retrying={prompts.isFetching}
            onRetry={() => void prompts.refetch()}
          />
        ) : (
          <PromptsTable prompts={prompts.data} onEdit={(prompt) => setEditing({ mode: "edit", prompt })} onDelete={setDeleting} />
        )}
        <ProductKeys prompts={prompts.data} onAdd={(key) => setEditing({ mode: "new", key })} />
      </div>
      {editing ? (
        <PromptDialog
          prompt={editing.mode === "edit" ? editing.prompt : undefined}
          initialKey={editing.mode === "new" ? editing.key : undefined}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? <DeletePromptDialog prompt={deleting} onClose={() => setDeleting(null)} /> : null}
    </AdminShell>
  );
}
