import { CircleAlert, CircleCheck, Clock, Loader2 } from "lucide-react";
import type { KnowledgeFile } from "../../shared/contracts/knowledge.js";

/** A library file's state (the library page, the New Course dialog): queued → "Reading…" → "Indexing 12 of 40" → Ready, or Failed with its reason. */
export function fileStateText(file: KnowledgeFile): string {
  switch (file.status) {
    case "queued":
      return "Queued";
    case "processing":
      return file.stage === "indexing" && file.progressTotal > 0 ? `Indexing ${file.progressDone} of ${file.progressTotal}` : "Reading…";
    case "ready":
      return "Ready";
    case "failed":
      return "Failed";
  }
}

export function FileState({ file }: { file: KnowledgeFile }) {
  const text = fileStateText(file);
  const icon =
    file.status === "ready" ? (
      <CircleCheck aria-hidden="true" className="size-3.5 text-emerald-600 dark:text-emerald-400" />
    ) : file.status === "failed" ? (
      <CircleAlert aria-hidden="true" className="size-3.5" />
    ) : file.status === "processing" ? (
      <Loader2 aria-hidden="true" className="size-3.5 animate-spin" />
    ) : (
      <Clock aria-hidden="true" className="size-3.5" />
    );
  return (
    <span
      data-testid="file-state"
      className={`inline-flex items-center gap-1 text-xs font-medium ${file.status === "failed" ? "text-destructive dark:text-red-300" : "text-muted-foreground"}`}
    >
      {icon}
      {text}
    </span>
  );
}
