import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { Button } from "../../../../../components/ui/button.js";
import { FormField } from "../../../../../components/ui/form-field.js";
import { Input } from "../../../../../components/ui/input.js";

/**
 * The SMTP password box: masked, with an eye toggle. The server never sends the stored password back, so
 * the toggle only reveals what the admin is typing now.
 */
export function PasswordInput({
  id,
  label,
  error,
  hint,
  ...inputProps
}: ComponentProps<typeof Input> & { id: string; label: string; error?: string; hint?: string }) {
  const [shown, setShown] = useState(false);
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <div className="relative">
        <Input
          id={id}
          type={shown ? "text" : "password"}
          autoComplete="new-password"
          autoCapitalize="none"
          spellCheck={false}
          data-1p-ignore
          data-lpignore="true"
          className="pr-11"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...inputProps}
        />
        <Button
          variant="ghost"
          size="icon"
          className="absolute inset-y-0 right-0 h-full rounded-l-none text-muted-foreground"
          aria-label={shown ? "Hide password" : "Show password"}
          aria-controls={id}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        </Button>
      </div>
    </FormField>
  );
}
