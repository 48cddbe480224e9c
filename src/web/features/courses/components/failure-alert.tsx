import { CircleAlert } from "lucide-react";
import { Alert } from "../../../components/ui/alert.js";
import { failureText } from "../../../lib/failure-text.js";

/**
 * A step of a dialog that failed, with the server's reason in the dialog itself (decision 059): the toast that also says
 * it goes after a few seconds, and a dialog must not point at a message that has gone.
 */
export function FailureAlert({ title, error, fallback }: { title: string; error: unknown; fallback: string }) {
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-medium">{title}</p>
        <p>{failureText(error, fallback)}</p>
      </div>
    </Alert>
  );
}
