import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  type CreateAdminUserBody,
  type CreateAdminUserInput,
  createAdminUserBodySchema,
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
import { useCreateUser } from "../api.js";
import { ChoiceField } from "./choice-field.js";
import { PLAN_OPTIONS, ROLE_OPTIONS } from "./user-options.js";

const ID = "new-user";
const FIELDS = ["username", "name", "email", "password", "role", "planType"] as const;

/** Add User: the shared contract checks the form as it checks the server's input. */
export function CreateUserDialog({ onClose }: { onClose: () => void }) {
  const form = useForm<CreateAdminUserBody, unknown, CreateAdminUserInput>({
    resolver: zodResolver(createAdminUserBodySchema),
    defaultValues: { username: "", name: "", email: "", password: "", role: "user", planType: "free" },
  });
  const create = useCreateUser();
  const { errors } = form.formState;

  const persist = (body: CreateAdminUserInput) =>
    savedOrNot(
      create.mutateAsync(body, {
        onSuccess: (user) => {
          notify.success("User created", `${user.username} can sign in now.`);
          onClose();
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, FIELDS);
          notify.error("Error creating user", errorMessage(error));
        },
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !create.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>A new account that can sign in at once with this password.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField
            id={`${ID}-username`}
            label="Username"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={50}
            hint="At least 3 characters. It cannot be changed later."
            error={errors.username?.message}
            {...form.register("username")}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id={`${ID}-name`}
              label="Name"
              autoComplete="off"
              maxLength={100}
              hint="Optional."
              error={errors.name?.message}
              {...form.register("name")}
            />
            <TextField
              id={`${ID}-email`}
              label="Email"
              type="email"
              autoComplete="off"
              spellCheck={false}
              hint="Optional."
              error={errors.email?.message}
              {...form.register("email")}
            />
          </div>
          <TextField
            id={`${ID}-password`}
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_RULE_HINT}
            error={errors.password?.message}
            {...form.register("password")}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <ChoiceField control={form.control} name="role" id={`${ID}-role`} label="Role" options={ROLE_OPTIONS} />
            <ChoiceField control={form.control} name="planType" id={`${ID}-plan`} label="Plan" options={PLAN_OPTIONS} />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? <ButtonSpinner /> : null}
              {create.isPending ? "Creating..." : "Create User"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
