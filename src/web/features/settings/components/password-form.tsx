import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { type PasswordChangeBody, passwordChangeBodySchema, REVOKE_TOKENS_WORDS } from "../../../../shared/contracts/user.js";
import { PASSWORD_RULE_HINT } from "../../../../shared/password-rule.js";
import { Button } from "../../../components/ui/button.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useChangePassword } from "../api.js";
import { useApiTokens } from "../tokens-api.js";

const empty: PasswordChangeBody = { currentPassword: "", newPassword: "", confirmPassword: "", revokeTokens: true };

/**
 * Current, New and Confirm password; to a person with API tokens, whether they end too (checked by default: a change
 * ends them unless the person keeps them on purpose, decision 056), with what will happen in words.
 */
export function PasswordForm({ username }: { username: string }) {
  const form = useForm<PasswordChangeBody>({ resolver: zodResolver(passwordChangeBodySchema), defaultValues: empty });
  const { errors } = form.formState;
  const change = useChangePassword();
  const tokens = useApiTokens().data?.length ?? 0;
  const revoking = form.watch("revokeTokens") !== false;

  const persist = (values: PasswordChangeBody) =>
    savedOrNot(
      change.mutateAsync(values, {
        onSuccess: () => {
          form.reset(empty);
          const tokensToo = tokens > 0 && values.revokeTokens !== false;
          notify.success(
            "Password updated",
            tokensToo
              ? "Your password has been changed, your other devices have been signed out and your API tokens revoked."
              : "Your password has been changed and your other devices have been signed out.",
          );
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
      {tokens > 0 ? (
        <div className="grid gap-1">
          <div className="flex items-start gap-3">
            <Controller
              control={form.control}
              name="revokeTokens"
              render={({ field }) => (
                <Checkbox
                  id="revoke-tokens"
                  className="mt-0.5"
                  checked={field.value !== false}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  aria-describedby="revoke-tokens-hint"
                />
              )}
            />
            <Label htmlFor="revoke-tokens" className="leading-snug font-normal">
              {REVOKE_TOKENS_WORDS.label}
            </Label>
          </div>
          <p id="revoke-tokens-hint" className="ml-7 text-sm text-muted-foreground">
            {revoking ? REVOKE_TOKENS_WORDS.revoked(tokens) : REVOKE_TOKENS_WORDS.kept(tokens)}
          </p>
        </div>
      ) : null}
      <div>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? <ButtonSpinner /> : null}
          {change.isPending ? "Updating..." : "Update Password"}
        </Button>
      </div>
    </form>
  );
}
