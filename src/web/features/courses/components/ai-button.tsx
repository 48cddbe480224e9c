import { Sparkles } from "lucide-react";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";

/** "Generate with AI" beside a field; "Generating..." while the call runs. */
export function AiButton({ pending, onClick, label = "Generate with AI" }: { pending: boolean; onClick: () => void; label?: string }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick} disabled={pending}>
      {pending ? <ButtonSpinner /> : <Sparkles aria-hidden="true" />}
      {pending ? "Generating..." : label}
    </Button>
  );
}
