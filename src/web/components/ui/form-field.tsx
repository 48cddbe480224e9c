import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn.js";
import { Input } from "./input.js";
import { Label } from "./label.js";

/** The error text under a field; its id is what the control's aria-describedby points at. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-destructive">
      {message}
    </p>
  );
}

/** Label + control + error text, laid out in one column. */
export function FormField({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A labelled text input with its error underneath; spread react-hook-form's register() into it. */
export function TextField({
  id,
  label,
  error,
  hint,
  className,
  ...inputProps
}: ComponentProps<typeof Input> & { id: string; label: ReactNode; error?: string; hint?: ReactNode }) {
  return (
    <FormField id={id} label={label} error={error} hint={hint} className={className}>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...inputProps} />
    </FormField>
  );
}
