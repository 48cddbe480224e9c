import { Sparkles } from "lucide-react";
import type { Usage } from "../../shared/contracts/usage.js";
import type { PublicUser } from "../../shared/contracts/user.js";
import { PLAN_LABELS } from "../../shared/plan.js";
import { storageText } from "../domain/storage-usage.js";
import { allowanceLines, LOW_SHARE, resetText } from "../domain/usage.js";
import { cn } from "../lib/cn.js";
import { GetEarlyAccessButton } from "./get-early-access-button.js";
import { Badge } from "./ui/badge.js";

const WHAT_YOU_GET = {
  free: "Basic chat with the free-tier models.",
  earlyAccess: "All AI models, training personalities and AI course generation.",
} as const;

/** What the free plan's summary offers (the shared UPGRADE_MESSAGE's "it" is a feature just named; here none is). */
const UPGRADE_OFFER = "Get Early Access for every AI model, training personalities and AI course generation.";

/** The plan's allowances as bars: used of the limit, and what is left; the server's refusal once one is spent. */
function UsageBars({ usage, admin }: { usage: Usage; admin: boolean }) {
  const lines = allowanceLines(usage);
  if (usage.unlimited || lines.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {admin ? "As an administrator you have no usage limits." : "Your plan has no usage limits."}
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      <ul aria-label="Usage" className="grid gap-x-8 gap-y-3 sm:grid-cols-2">
        {lines.map((line) => {
          const low = line.share < LOW_SHARE;
          return (
            <li key={line.label} className="grid gap-1.5">
              <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
                <span className="font-medium">{line.label}</span>
                <span className={cn("text-muted-foreground", low && "font-medium text-amber-700 dark:text-amber-300")}>{line.used}</span>
              </p>
              {/* The words above and below say it; the bar only draws the share used. */}
              <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-muted">
                <div
                  className={cn("h-full rounded-full", low ? "bg-amber-500" : "bg-primary/70")}
                  style={{ width: `${Math.round((1 - line.share) * 100)}%` }}
                />
              </div>
              <p className="text-xs text-muted-foreground">{line.left}</p>
            </li>
          );
        })}
      </ul>
      {usage.blocked ? (
        <p role="alert" className="text-sm text-destructive dark:text-red-300">
          {usage.blocked} <span className="text-muted-foreground">Sending is back on {resetText(usage)} (your time).</span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The account's plan, what it includes and, on the free plan, how to get Early Access (never for Early Access
 * accounts or admins). With `usage` (the dashboard), the plan's allowances as meters too.
 */
export function PlanSummary({ user, usage, className }: { user: PublicUser; usage?: Usage | undefined; className?: string }) {
  const free = user.planType === "free";
  const admin = user.role === "admin";
  return (
    <section
      aria-labelledby="plan-heading"
      data-testid="plan-summary"
      className={cn("flex items-start gap-3 rounded-lg border p-4", className)}
    >
      <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-1">
        <h3 id="plan-heading" className="flex flex-wrap items-center gap-2 text-sm font-medium">
          Plan:
          <Badge variant={free ? "secondary" : "new"} className="px-2 py-0.5 text-xs tracking-normal normal-case">
            {PLAN_LABELS[user.planType]}
          </Badge>
        </h3>
        <p className="text-sm text-muted-foreground">
          {WHAT_YOU_GET[user.planType]}
          {free && !admin ? ` ${UPGRADE_OFFER}` : null}
        </p>
        {free && admin ? (
          <p className="text-xs text-muted-foreground">As an administrator you can already use every Early Access feature.</p>
        ) : null}
        {usage ? (
          <div className="mt-3">
            <UsageBars usage={usage} admin={admin} />
            <p data-testid="storage-usage" className="mt-3 text-sm">
              <span className="font-medium">Knowledge library</span>{" "}
              <span className="text-muted-foreground">{storageText(usage.storage)}</span>
            </p>
          </div>
        ) : null}
        {free && !admin ? <GetEarlyAccessButton className="mt-2 justify-self-start" /> : null}
      </div>
    </section>
  );
}
