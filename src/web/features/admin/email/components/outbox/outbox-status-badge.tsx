import { OUTBOX_STATUS_LABELS, type OutboxStatus } from "../../../../../../shared/contracts/email-outbox.js";
import { cn } from "../../../../../lib/cn.js";

const TONE: Record<OutboxStatus, string> = {
  queued: "border-border bg-muted text-foreground",
  sending: "border-primary/30 bg-primary/10 text-foreground",
  sent: "border-primary/40 bg-primary/15 text-foreground",
  failed: "border-destructive/30 bg-destructive/10 text-destructive",
  test: "border-dashed border-border bg-transparent text-muted-foreground",
};

/** queued, sending, sent, failed, or "Test inbox" (kept, never sent: no SMTP server configured). */
export function OutboxStatusBadge({ status }: { status: OutboxStatus }) {
  return (
    <span
      className={cn("inline-flex rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap", TONE[status])}
      data-status={status}
    >
      {OUTBOX_STATUS_LABELS[status]}
    </span>
  );
}
