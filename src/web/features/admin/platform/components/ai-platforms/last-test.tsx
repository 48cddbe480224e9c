import { CircleAlert, CircleCheck } from "lucide-react";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";
import { cn } from "../../../../../lib/cn.js";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The last connection test, kept by the server: passed or failed, when, and what it said. Nothing before a first test. */
export function LastTest({ platform }: { platform: AdminPlatform }) {
  const test = platform.lastTest;
  if (!test) return null;
  const Icon = test.ok ? CircleCheck : CircleAlert;
  return (
    <div
      role="status"
      data-testid="platform-last-test"
      className={cn(
        "mt-3 flex gap-2 rounded-lg border px-3 py-2 text-sm",
        test.ok
          ? "border-emerald-500/40 bg-emerald-500/10 text-emerald-900 dark:text-emerald-200"
          : "border-destructive/40 bg-destructive/10 text-destructive",
      )}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 break-words">
        <span className="font-medium">{test.ok ? "Last test passed" : "Last test failed"}</span>{" "}
        <time dateTime={test.at} className="opacity-80">
          {when(test.at)}
        </time>
        <span className="block">{test.message}</span>
      </p>
    </div>
  );
}
