import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  ADMIN_USER_REFUSALS,
  type AdminUser,
  type AdminUserPatch,
  type UpdateAdminUserBody,
  updateAdminUserBodySchema,
} from "../../../../../shared/contracts/admin-users.js";
import { PASSWORD_RULE_HINT } from "../../../../../shared/password-rule.js";
import { Button } from "../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../components/ui/dialog.js";
import { TextField } from "../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../components/ui/spinner.js";
import { errorMessage } from "../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../lib/form-errors.js";
import { notify } from "../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../lib/unsaved-changes.js";
import { useUpdateUser } from "../api.js";
import { ChoiceField } from "./choice-field.js";
import { formatJoined } from "./user-format.js";
import { PLAN_OPTIONS, ROLE_OPTIONS, STATUS_OPTIONS } from "./user-options.js";
import { UserUsage } from "./user-usage.js";

const ID = "edit-user";
const FIELDS = ["name", "email", "password", "role", "planType", "status"] as const;

/** Only what the admin changed is sent (docs/product.md, Admin back office); a blank password keeps the current one. */
function changes(user: AdminUser, values: AdminUserPatch): UpdateAdminUserBody {
  const body: UpdateAdminUserBody = {};
  if ((values.name ?? "") !== (user.name ?? "")) body.name = values.name ?? "";
  if ((values.email ?? "").toLowerCase() !== (user.email ?? "")) body.email = values.email ?? "";
  if (values.password) body.password = values.password;
  if (values.role && values.role !== user.role) body.role = values.role;
  if (values.planType && values.planType !== user.planType) body.planType = values.planType;
  if (values.status && values.status !== user.status) body.status = values.status;
  return body;
}

/** Edit User: the username is shown, not editable; the admin's own role and status are locked. */
export function EditUserDialog({ user, isSelf, onClose }: { user: AdminUser; isSelf: boolean; onClose: () => void }) {
  const form = useForm<UpdateAdminUserBody, unknown, AdminUserPatch>({
    resolver: zodResolver(updateAdminUserBodySchema),
    defaultValues: {
      name: user.name ?? "",
      email: user.email ?? "",
      password: "",
      role: user.role,
      planType: user.planType,
      status: user.status,
    },
  });
  const update = useUpdateUser();
  const { errors } = form.formState;
  const disabling = user.status === "active" && form.watch("status") === "inactive";

  const persist = (values: AdminUserPatch) => {
    const body = changes(user, values);
    if (Object.keys(body).length === 0) {
      onClose();
      return Promise.resolve(true);
    }
    return savedOrNot(
      update.mutateAsync(
        { id: user.id, body },
        {
          onSuccess: () => {
            notify.success("User updated");
            onClose();
          },
          onError: (error) => {
            applyServerFieldErrors(form.setError, error, FIELDS);
            notify.error("Error updating user", errorMessage(error));
          },
        },
      ),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>
            {user.username} · Joined {formatJoined(user.createdAt)}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField id={`${ID}-username`} label="Username" value={user.username} readOnly disabled hint="Usernames cannot be changed." />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id={`${ID}-name`}
              label="Name"
              autoComplete="off"
              maxLength={100}
              error={errors.name?.message}
              {...form.register("name")}
            />
            <TextField
              id={`${ID}-email`}
              label="Email"
              type="email"
              autoComplete="off"
              spellCheck={false}
              error={errors.email?.message}
              {...form.register("email")}
            />
          </div>
          <TextField
            id={`${ID}-password`}
            label="Password"
            type="password"
            autoComplete="new-password"
            placeholder="Leave blank to keep the current password"
            hint={`${PASSWORD_RULE_HINT} A new password signs the user out everywhere.`}
            error={errors.password?.message}
            {...form.register("password")}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <ChoiceField
              control={form.control}
              name="role"
              id={`${ID}-role`}
              label="Role"
              options={ROLE_OPTIONS}
              disabled={isSelf}
              hint={isSelf ? ADMIN_USER_REFUSALS.demoteSelf : undefined}
            />
            <ChoiceField control={form.control} name="planType" id={`${ID}-plan`} label="Plan" options={PLAN_OPTIONS} />
            <ChoiceField
              control={form.control}
              name="status"
              id={`${ID}-status`}
              label="Status"
              options={STATUS_OPTIONS}
              disabled={isSelf}
              hint={isSelf ? ADMIN_USER_REFUSALS.disableSelf : undefined}
            />
          </div>
          {disabling ? (
            <p role="note" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">
              Saving signs {user.username} out everywhere at once, and they cannot sign in until an admin enables the account again.
            </p>
          ) : null}
          <UserUsage usage={user.usage} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? <ButtonSpinner /> : null}
              {update.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
