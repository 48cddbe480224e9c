import type { UseFormReturn } from "react-hook-form";
import type { RegisterForm } from "../../../../shared/contracts/auth.js";
import { PASSWORD_RULE_HINT } from "../../../../shared/password-rule.js";
import { TextField } from "../../../components/ui/form-field.js";

/** Username, Full Name, Email, Password, Confirm Password. */
export function RegisterStepOne({ form }: { form: UseFormReturn<RegisterForm> }) {
  const { errors } = form.formState;
  return (
    <div className="grid gap-4">
      <TextField
        id="register-username"
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...form.register("username")}
      />
      <TextField id="register-name" label="Full Name" autoComplete="name" error={errors.name?.message} {...form.register("name")} />
      <TextField
        id="register-email"
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...form.register("email")}
      />
      <TextField
        id="register-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE_HINT}
        error={errors.password?.message}
        {...form.register("password")}
      />
      <TextField
        id="register-confirm-password"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...form.register("confirmPassword")}
      />
    </div>
  );
}
