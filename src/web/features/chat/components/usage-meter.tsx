import { useQuery } from "@tanstack/react-query";
import { Gauge, OctagonAlert } from "lucide-react";
import { Fragment } from "react";
import type { Usage } from "../../../../shared/contracts/usage.js";
import { GetEarlyAccessButton } from "../../../components/get-early-access-button.js";
import { allowanceLines, LOW_SHARE, resetText, shareLeft, usageQuery } from "../../../domain/usage.js";

/**
 * The composer's read of the allowances: read when the chat opens; after each reply the reply's done event brings
 * it (or it is read again when the reply ended without one, or was refused: `useReplyStream`). `blocked` is the
 * server's own refusal once an allowance is spent.
 */
export function useUsageMeter(): { usage: Usage | undefined; blocked: string | null } {
  const usage = useQuery({ ...usageQuery, staleTime: 30_000 });
  return { usage: usage.data, blocked: usage.data?.blocked ?? null };
}

/**
 * What is left of the plan's allowances, above the message box; nothing for unlimited users (admins, plans
 * with no allowance) or while unknown (the server still refuses with its message). Once spent: the server's
 * message, when sending starts again and, on the free plan, "Get Early Access".
 */
export function UsageMeter({ usage }: { usage: Usage | undefined }) {
  if (!usage || usage.unlimited) return null;
  if (usage.blocked) {
    return (
      <div
        role="alert"
        data-testid="usage-meter"
        className="mb-2 flex items-start gap-2 rounded-xl border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive dark:border-destructive/60 dark:bg-destructive/15 dark:text-red-300"
      >
        <OctagonAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div className="grid min-w-0 gap-2">
          <p>
            {usage.blocked} <span className="text-muted-foreground">Sending is back on {resetText(usage)} (your time).</span>
          </p>
          {usage.planType === "free" ? <GetEarlyAccessButton className="justify-self-start" /> : null}
        </div>
      </div>
    );
  }
  const share = shareLeft(usage);
  const low = share < LOW_SHARE;
  return (
    <div data-testid="usage-meter" className="mb-1.5 flex items-center justify-center gap-2 px-1 text-xs text-muted-foreground">
      <Gauge aria-hidden="true" className={`hidden size-3.5 shrink-0 sm:block ${low ? "text-amber-600 dark:text-amber-400" : ""}`} />
      <p aria-live="polite" className={`text-center ${low ? "font-medium text-amber-700 dark:text-amber-300" : ""}`}>
        {allowanceLines(usage).map(({ left: text }, index) => (
          // One allowance never breaks inside its words on a phone; the line wraps between them.
          <Fragment key={text}>
            {index > 0 ? " · " : null}
            <span className="whitespace-nowrap">{text}</span>
          </Fragment>
        ))}
      </p>
      <div aria-hidden="true" className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-muted sm:block">
        <div className={`h-full rounded-full ${low ? "bg-amber-500" : "bg-primary/60"}`} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}
