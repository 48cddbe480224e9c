import { useQuery } from "@tanstack/react-query";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { PlanSummary } from "../../../components/plan-summary.js";
import { usageQuery } from "../../../domain/usage.js";

/** The account's plan and its usage meters, with "Get Early Access" on the free plan (not for admins). */
export function YourPlan({ user }: { user: PublicUser }) {
  const usage = useQuery(usageQuery);
  return (
    <section aria-labelledby="your-plan-heading" className="grid gap-4">
      <h2 id="your-plan-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
        Your Plan
      </h2>
      <PlanSummary user={user} usage={usage.data} className="rounded-xl bg-card p-5 shadow-sm" />
    </section>
  );
}
