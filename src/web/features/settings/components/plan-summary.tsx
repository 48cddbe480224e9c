import { Sparkles } from "lucide-react";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { PLAN_LABELS } from "../../../../shared/plan.js";
import { GetEarlyAccessButton } from "../../../components/get-early-access-button.js";
import { Badge } from "../../../components/ui/badge.js";

const WHAT_YOU_GET = {
  free: "Basic chat with the free-tier models.",
  earlyAccess: "All AI models, training personalities and AI course generation.",
} as const;

/** What the free plan's summary offers (the shared UPGRADE_MESSAGE's "it" is a feature just named; here none is). */
const UPGRADE_OFFER = "Get Early Access for every AI model, training personalities and AI course generation.";

/** The account's plan, what it includes and, on the free plan, how to get Early Access. */
export function PlanSummary({ user }: { user: PublicUser }) {
  const free = user.planType === "free";
  const admin = user.role === "admin";
  return (
    <section aria-labelledby="plan-heading" className="flex items-start gap-3 rounded-lg border p-4">
      <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <div className="grid gap-1">
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
        {free && !admin ? <GetEarlyAccessButton className="mt-2 justify-self-start" /> : null}
      </div>
    </section>
  );
}
