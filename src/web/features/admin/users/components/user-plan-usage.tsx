import type { AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { formatTokens } from "./user-format.js";

/** "12,400 / 50,000" (or "/ Unlimited"), amber once 90% is used, red once all of it is. */
function UsedOf({ used, limit, unit }: { used: number; limit: number | null; unit: string }) {
  const full = limit !== null && used >= limit;
  const near = limit !== null && !full && used >= limit * 0.9;
  const tone = full ? "font-medium text-destructive dark:text-red-300" : near ? "text-amber-700 dark:text-amber-300" : "";
  return (
    <span
      className={`tabular-nums ${tone}`}
      title={limit === null ? `${formatTokens(used)} ${unit}, no limit` : `${formatTokens(used)} of ${formatTokens(limit)} ${unit}`}
    >
      {formatTokens(used)} / {limit === null ? "Unlimited" : formatTokens(limit)}
    </span>
  );
}

/** Tokens this month (UTC) against the plan's monthly allowance. */
export function TokensThisMonth({ user }: { user: AdminUser }) {
  return <UsedOf used={user.planUsage.tokensThisMonth} limit={user.planUsage.monthlyTokens} unit="tokens this month" />;
}

/** Messages sent today (UTC) against the plan's daily allowance. */
export function MessagesToday({ user }: { user: AdminUser }) {
  return <UsedOf used={user.planUsage.messagesToday} limit={user.planUsage.messagesPerDay} unit="messages today" />;
}
