import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import type { EmailTemplate } from "../../../../../../shared/contracts/email.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card } from "../../../../../components/ui/card.js";
import { LoadFailed } from "../../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../../components/ui/spinner.js";
import { cn } from "../../../../../lib/cn.js";
import { useLeaveScope } from "../../../../../lib/unsaved-changes.js";
import { emailTemplatesQuery } from "../../api.js";
import { TemplateForm } from "./template-form.js";

type Selection = { kind: "new" } | { kind: "template"; id: number } | { kind: "first" };

function TemplateList({
  templates,
  selectedId,
  creating,
  onSelect,
  onNew,
}: {
  templates: EmailTemplate[];
  selectedId: number | null;
  creating: boolean;
  onSelect: (id: number) => void;
  onNew: () => void;
}) {
  return (
    <Card className="gap-0 py-0">
      <div className="flex items-center justify-between gap-2 border-b p-3">
        <h2 className="text-sm font-semibold">Templates</h2>
        <Button size="sm" onClick={onNew} variant={creating ? "secondary" : "default"}>
          <Plus aria-hidden="true" />
          New Template
        </Button>
      </div>
      {templates.length === 0 ? (
        <p className="p-4 text-sm text-muted-foreground">No templates yet. Create one with New Template.</p>
      ) : (
        <nav aria-label="Email templates" className="grid max-h-[28rem] gap-1 overflow-y-auto p-2">
          {templates.map((t) => (
            <button
              key={t.id}
              type="button"
              aria-current={t.id === selectedId ? "true" : undefined}
              onClick={() => onSelect(t.id)}
              className={cn(
                "grid gap-0.5 rounded-md px-3 py-2 text-left text-sm transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50",
                t.id === selectedId && "bg-accent text-accent-foreground",
              )}
            >
              <span className="truncate font-medium">{t.name}</span>
              <span className="truncate font-mono text-xs text-muted-foreground">{t.slug}</span>
            </button>
          ))}
        </nav>
      )}
    </Card>
  );
}

/** Email Templates: the list on the left (above on a phone) and the editor of the selected or new template. */
export function TemplatesPanel() {
  const templates = useQuery(emailTemplatesQuery);
  const [selection, setSelection] = useState<Selection>({ kind: "first" });
  // Opening another template (or New) asks first about the open one's unsaved changes.
  const editor = useLeaveScope();

  if (templates.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner label="Loading email templates..." />
        <span aria-hidden="true">Loading email templates...</span>
      </div>
    );
  }
  if (templates.isError) {
    return (
      <LoadFailed
        title="Failed to load email templates."
        error={templates.error}
        advice="Check your connection and retry."
        retrying={templates.isFetching}
        onRetry={() => void templates.refetch()}
      />
    );
  }

  const list = templates.data;
  const selected =
    selection.kind === "template" ? list.find((t) => t.id === selection.id) : selection.kind === "first" ? list[0] : undefined;
  const creating = !selected;

  return (
    <div className="grid items-start gap-4 lg:grid-cols-[17rem_1fr]">
      <TemplateList
        templates={list}
        selectedId={selected?.id ?? null}
        creating={creating}
        onSelect={(id) => editor.confirmLeave(() => setSelection({ kind: "template", id }))}
        onNew={() => editor.confirmLeave(() => setSelection({ kind: "new" }))}
      />
      <TemplateForm
        key={selected ? `template-${selected.id}` : "new"}
        template={selected}
        scope={editor}
        onSaved={(saved) => setSelection({ kind: "template", id: saved.id })}
        onDeleted={() => setSelection({ kind: "first" })}
      />
    </div>
  );
}
