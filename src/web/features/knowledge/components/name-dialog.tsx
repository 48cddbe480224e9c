import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { Input } from "../../../components/ui/input.js";
import { Label } from "../../../components/ui/label.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";

/** One name to type (a new collection, a rename): the server's refusal shows under the field. */
export function NameDialog({
  title,
  description,
  label,
  initial,
  maxLength,
  submitLabel,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  description: string;
  label: string;
  initial: string;
  maxLength: number;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [empty, setEmpty] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setEmpty(true);
      return;
    }
    onSubmit(name.trim());
  };
  const shown = empty ? `${label} is required` : error;
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="knowledge-name">{label}</Label>
            <Input
              id="knowledge-name"
              value={name}
              maxLength={maxLength}
              autoComplete="off"
              aria-invalid={shown ? true : undefined}
              aria-describedby={shown ? "knowledge-name-error" : undefined}
              onChange={(event) => {
                setName(event.target.value);
                setEmpty(false);
              }}
            />
            {shown ? (
              <p id="knowledge-name-error" role="alert" className="text-sm text-destructive dark:text-red-300">
                {shown}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {submitLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
