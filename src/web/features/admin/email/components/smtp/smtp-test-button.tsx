import { CheckCircle2, PlugZap, XCircle } from "lucide-react";
import { Button } from "../../../../../components/ui/button.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { cn } from "../../../../../lib/cn.js";

/** The SMTP test goes idle → testing → success or error. */
export type SmtpTestState =
  | { status: "idle" }
  | { status: "testing" }
  | { status: "success"; message: string }
  | { status: "error"; message: string };

const LABEL = { idle: "Test Connection", testing: "Testing...", success: "Connection Successful", error: "Connection Failed" } as const;

export function SmtpTestButton({ state, disabled, onTest }: { state: SmtpTestState; disabled?: boolean; onTest: () => void }) {
  const { status } = state;
  return (
    <div className="grid justify-items-start gap-2">
      <Button
        type="button"
        variant="outline"
        onClick={onTest}
        disabled={disabled || status === "testing"}
        className={cn(status === "success" && "border-primary text-primary", status === "error" && "border-destructive text-destructive")}
      >
        {status === "testing" ? (
          <ButtonSpinner />
        ) : status === "success" ? (
          <CheckCircle2 aria-hidden="true" />
        ) : status === "error" ? (
          <XCircle aria-hidden="true" />
        ) : (
          <PlugZap aria-hidden="true" />
        )}
        {LABEL[status]}
      </Button>
      <p
        aria-live="polite"
        className={cn("text-sm", status === "error" ? "text-destructive" : "text-muted-foreground")}
        data-testid="smtp-test-result"
      >
        {state.status === "success" || state.status === "error" ? state.message : null}
      </p>
    </div>
  );
}
