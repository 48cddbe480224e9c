import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type PasswordChangeBody, passwordChangeBodySchema } from "../../../../shared/contracts/user.js";
import { PASSWORD_RULE_HINT } from "../../../../shared/password-rule.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useChangePassword } from "../api.js";

const empty: PasswordChangeBody = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Current, New and Confirm password. */
export function PasswordForm({ username }: { username: string }) {
  const form = useForm<PasswordChangeBody>({ resolver: zodResolver(passwordChangeBodySchema), defaultValues: empty });
  const { errors } = form.formState;
  const change = useChangePassword();

  const persist = (values: PasswordChangeBody) =>
    savedOrNot(
      change.mutateAsync(values, {
        onSuccess: () => {
          form.reset(empty);
          notify.success("Password updated", "Your password has been changed and your other devices have been signed out.");
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, ["currentPassword", "newPassword", "confirmPassword"]);
          notify.error("Update failed", errorMessage(error));
        },
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <form noValidate className="grid max-w-xl gap-4" onSubmit={onSubmit}>
      {/* Lets password managers tie the new password to the account; not shown. */}
      <div className="hidden">
        <label htmlFor="password-form-username">Username</label>
        <input id="password-form-username" type="text" autoComplete="username" value={username} readOnly tabIndex={-1} />
      </div>
      <TextField
        id="current-password"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...form.register("currentPassword")}
      />
      <TextField
        id="new-password"
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE_HINT}
        error={errors.newPassword?.message}
        {...form.register("newPassword")}
      />
      <TextField
        id="confirm-password"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...form.register("confirmPassword")}
      />
      <div>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? <ButtonSpinner /> : null}
          {change.isPending ? "Updating..." : "Update Password"}
        </Button>
      </div>
    </form>
  );
}
