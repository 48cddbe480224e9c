import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type ProfileBody, type PublicUser, profileBodySchema } from "../../../../shared/contracts/user.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useUpdateProfile } from "../api.js";

type ProfileValues = { name: string; email: string };

/** Name and Email. */
export function ProfileForm({ user }: { user: PublicUser }) {
  const form = useForm<ProfileValues, unknown, ProfileBody>({
    resolver: zodResolver(profileBodySchema) as never,
    defaultValues: { name: user.name ?? "", email: user.email ?? "" },
  });
  const { errors } = form.formState;
  const update = useUpdateProfile();

  const persist = (values: ProfileBody) =>
    savedOrNot(
      update.mutateAsync(values, {
        onSuccess: (saved) => {
          form.reset({ name: saved.name ?? "", email: saved.email ?? "" });
          notify.success("Profile updated", "Your name and email have been saved.");
        },
        onError: (error) => {
          applyServerFieldErrors(form.setError, error, ["name", "email"]);
          notify.error("Update failed", errorMessage(error));
        },
      }),
    );
  const onSubmit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <form noValidate className="grid max-w-xl gap-4" onSubmit={onSubmit}>
      <TextField id="profile-name" label="Name" autoComplete="name" error={errors.name?.message} {...form.register("name")} />
      <TextField
        id="profile-email"
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register("email")}
      />
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <ButtonSpinner /> : null}
          {update.isPending ? "Saving..." : "Save"}
        </Button>
      </div>
    </form>
  );
}
