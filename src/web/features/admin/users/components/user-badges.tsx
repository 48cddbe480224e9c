import type { AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { PLAN_LABELS } from "../../../../../shared/plan.js";
import { Badge } from "../../../../components/ui/badge.js";
import { ROLE_LABELS, STATUS_LABELS } from "./user-format.js";

export function RoleBadge({ role }: { role: AdminUser["role"] }) {
  return <Badge variant={role === "admin" ? "default" : "outline"}>{ROLE_LABELS[role]}</Badge>;
}

export function PlanBadge({ planType }: { planType: AdminUser["planType"] }) {
  return <Badge variant={planType === "earlyAccess" ? "beta" : "secondary"}>{PLAN_LABELS[planType]}</Badge>;
}

export function StatusBadge({ status }: { status: AdminUser["status"] }) {
  return (
    <Badge variant={status === "active" ? "new" : "outline"} className={status === "inactive" ? "text-muted-foreground" : undefined}>
      <span
        aria-hidden="true"
        className={status === "active" ? "size-1.5 rounded-full bg-current" : "size-1.5 rounded-full border border-current"}
      />
      {STATUS_LABELS[status]}
    </Badge>
  );
}
