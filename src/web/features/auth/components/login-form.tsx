import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import type { LoginBody } from "../../../../shared/contracts/auth.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { paths } from "../../../lib/paths.js";
import { useLogin } from "../use-login.js";
import { type LoginErrors, preloadLoginRules, validateLogin } from "../validate-login.js";

/** Username, password and Login; errors under the fields, checked again as the user types after a first try. */
export function LoginForm() {
  const [values, setValues] = useState<LoginBody>({ username: "", password: "" });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [tried, setTried] = useState(false);
  const login = useLogin();

  const change = (field: keyof LoginBody) => (event: FormEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    if (tried) void validateLogin(next).then((result) => setErrors(result.errors));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    const result = await validateLogin(values);
    setErrors(result.errors);
    if (result.data) login.mutate(result.data);
    else document.getElementById(result.errors.username ? "login-username" : "login-password")?.focus();
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit} onFocus={preloadLoginRules}>
      <TextField
        id="login-username"
        name="username"
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={values.username}
        onChange={change("username")}
        error={errors.username}
      />
      <TextField
        id="login-password"
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        onChange={change("password")}
        error={errors.password}
      />
      <div className="-mt-2 flex justify-end">
        <Link
          href={paths.forgotPassword}
          className="rounded-sm text-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? <ButtonSpinner /> : null}
        {login.isPending ? "Logging in..." : "Login"}
      </Button>
    </form>
  );
}
