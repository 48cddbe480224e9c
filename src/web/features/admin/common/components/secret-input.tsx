import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, type ReactNode, useState } from "react";
import { Button } from "../../../../components/ui/button.js";
import { FormField } from "../../../../components/ui/form-field.js";
import { Input } from "../../../../components/ui/input.js";

/**
 * A secret box (an API key, the SMTP password): masked, with an eye toggle. The server never sends a stored
 * secret back, so the toggle can only reveal what the admin is typing now. `secret` names it for the toggle.
 */
export function SecretInput({
  id,
  label,
  secret,
  error,
  hint,
  ...inputProps
}: ComponentProps<typeof Input> & {
  id: string;
  label: ReactNode /** What the toggle names ("API key", "password", "secret key"...), so several on a page stay distinct. */;
  secret: string;
  error?: string;
  hint?: string;
}) {
  const [shown, setShown] = useState(false);
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <div className="relative">
        <Input
          id={id}
          type={shown ? "text" : "password"}
          autoComplete={secret === "password" ? "new-password" : "off"}
          autoCapitalize="none"
          spellCheck={false}
          data-1p-ignore
          data-lpignore="true"
          className={secret === "password" ? "pr-11" : "pr-11 font-mono"}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...inputProps}
        />
        <Button
          variant="ghost"
          size="icon"
          className="absolute inset-y-0 right-0 h-full rounded-l-none text-muted-foreground"
          aria-label={`${shown ? "Hide" : "Show"} ${secret}`}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        </Button>
      </div>
    </FormField>
  );
}
