import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Ban, Check, ChevronRight, CircleAlert, Loader2, ShieldQuestion, Wrench } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useId, useState } from "react";
import type { Message } from "../../../../shared/contracts/chat.js";
import type { ToolCall } from "../../../../shared/contracts/tools.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { toolSourceLabel, toolsQuery } from "../../../domain/tools.js";
import { cn } from "../../../lib/cn.js";
import { answerToolCall } from "../answer-tool-call.js";
import { replySegments } from "../tool-segments.js";
import { useMessageActions } from "./message-actions.js";

// What a call's card shows once opened (its arguments and result) loads when a card is first opened.
const ToolCallDetails = lazy(() => import("./tool-call-details.js").then((m) => ({ default: m.ToolCallDetails })));

const STATUS: Record<ToolCall["status"], { label: string; className: string }> = {
  running: { label: "Running", className: "text-muted-foreground" },
  "awaiting-approval": { label: "Waiting for your approval", className: "text-amber-800 dark:text-amber-300" },
  done: { label: "Done", className: "text-emerald-700 dark:text-emerald-400" },
  error: { label: "Failed", className: "text-destructive" },
  denied: { label: "Denied", className: "text-muted-foreground" },
};

function StatusIcon({ status }: { status: ToolCall["status"] }) {
  const className = "size-3.5 shrink-0";
  if (status === "running") return <Loader2 aria-hidden="true" className={cn(className, "animate-spin")} />;
  if (status === "awaiting-approval") return <ShieldQuestion aria-hidden="true" className={className} />;
  if (status === "done") return <Check aria-hidden="true" className={className} />;
  if (status === "error") return <CircleAlert aria-hidden="true" className={className} />;
  return <Ban aria-hidden="true" className={className} />;
}

/** Approve / Deny under a call that waits for the user; the reply goes on once the server has the answer. */
function Approval({ call }: { call: ToolCall }) {
  const actions = useMessageActions();
  const client = useQueryClient();
  const [answering, setAnswering] = useState<"approve" | "deny" | null>(null);
  if (!actions) return null;
  const answer = async (approve: boolean) => {
    setAnswering(approve ? "approve" : "deny");
    try {
      await answerToolCall(client, actions, call.id, approve);
    } finally {
      setAnswering(null);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-amber-500/30 px-3 py-2">
      <p className="mr-auto text-xs text-muted-foreground">This tool asks before each call. Run it with these arguments?</p>
      <Button size="sm" disabled={answering !== null || actions.busy} aria-label={`Approve ${call.name}`} onClick={() => void answer(true)}>
        {answering === "approve" ? <ButtonSpinner /> : null}
        Approve
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={answering !== null || actions.busy}
        aria-label={`Deny ${call.name}`}
        onClick={() => void answer(false)}
      >
        {answering === "deny" ? <ButtonSpinner /> : null}
        Deny
      </Button>
    </div>
  );
}

/**
 * One tool call of a reply: a disclosure button (the tool, where it comes from, how the call stands), collapsed by
 * default; opened, the arguments and the result as plain text. A call awaiting approval opens (the question is about
 * its arguments: they are shown above it, decision 060) and shows Approve / Deny.
 */
function ToolCallCard({ call }: { call: ToolCall }) {
  const awaiting = call.status === "awaiting-approval";
  const [open, setOpen] = useState(awaiting);
  // A call that comes to ask while the card is drawn (the reply streaming) opens too; the user may close it again.
  useEffect(() => {
    if (awaiting) setOpen(true);
  }, [awaiting]);
  const detailsId = useId();
  const tools = useQuery(toolsQuery).data;
  const status = STATUS[call.status];
  const source = toolSourceLabel(call.tool, tools);
  return (
    <div
      data-tool-call={call.id}
      data-tool-status={call.status}
      className={cn(
        "w-full min-w-0 overflow-hidden rounded-lg border bg-muted/30 text-sm",
        call.status === "awaiting-approval" && "border-amber-500/50",
      )}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? detailsId : undefined}
        onClick={() => setOpen((was) => !was)}
        className="flex w-full min-w-0 items-center gap-2 rounded-lg px-3 py-2 text-left outline-none hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <ChevronRight
          aria-hidden="true"
          className={cn("size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-90")}
        />
        <Wrench aria-hidden="true" className="size-3.5 shrink-0 text-primary" />
        <span className="min-w-0 truncate font-medium">{call.name}</span>
        <span className="hidden min-w-0 truncate text-xs text-muted-foreground sm:inline">{source}</span>
        <span className={cn("ml-auto flex shrink-0 items-center gap-1 text-xs", status.className)}>
          <StatusIcon status={call.status} />
          {status.label}
        </span>
      </button>
      {open ? (
        <div id={detailsId} className="border-t">
          <Suspense fallback={<Spinner className="m-3 size-4" label="Loading the call" />}>
            <ToolCallDetails call={call} source={source} />
          </Suspense>
        </div>
      ) : null}
      {awaiting ? <Approval call={call} /> : null}
    </div>
  );
}

/** A reply that made tool calls: its text, with each call as a card where it was made (issue 34). */
export function ReplyWithTools({ message, renderText }: { message: Message; renderText: (text: string, key: string) => ReactNode }) {
  return replySegments(message.content, message.toolCalls).map((segment) =>
    segment.kind === "text" ? (
      renderText(segment.text, segment.key)
    ) : (
      <div key={segment.key} className="my-2 flex w-full flex-col gap-2">
        {segment.calls.map((call) => (
          <ToolCallCard key={call.id} call={call} />
        ))}
      </div>
    ),
  );
}
