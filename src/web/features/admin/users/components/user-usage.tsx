import { type TokenUsage, USAGE_WINDOW_DAYS } from "../../../../../shared/contracts/admin-users.js";
import { formatTokens } from "./user-format.js";

/** Tokens used over the last 30 days, as the edit dialog shows them. */
export function UserUsage({ usage }: { usage: TokenUsage }) {
  return (
    <section aria-labelledby="user-usage-title" className="rounded-lg border bg-muted/40 px-4 py-3">
      <h3 id="user-usage-title" className="text-sm font-medium">
        Token usage, last {USAGE_WINDOW_DAYS} days
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-muted-foreground">Input</dt>
          <dd className="font-semibold tabular-nums">{formatTokens(usage.inputTokens)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Output</dt>
          <dd className="font-semibold tabular-nums">{formatTokens(usage.outputTokens)}</dd>
        </div>
      </dl>
    </section>
  );
}
