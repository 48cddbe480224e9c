import { CircleAlert } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import type { LoginBody } from "../../../../shared/contracts/auth.js";
import { isRefusedAccount, SIGNED_OUT_MESSAGES } from "../../../../shared/signed-out.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { forgetSignedOutReason, readSignedOutReason } from "../../../domain/signed-out-reason.js";
import { paths } from "../../../lib/paths.js";
import { useLogin } from "../use-login.js";
import { type LoginErrors, preloadLoginRules, validateLogin } from "../validate-login.js";

/** Username, password and Login; errors under the fields, checked again as the user types after a first try. */
export function LoginForm() {
  const [values, setValues] = useState<LoginBody>({ username: "", password: "" });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [tried, setTried] = useState(false);
  // The server's refusal (a wrong password), said in the form until the next try, beside the toast (decision 060).
  const [failed, setFailed] = useState<string | null>(null);
  const login = useLogin((message) => {
    setFailed(message);
    const password = document.getElementById("login-password");
    if (password instanceof HTMLInputElement) password.select();
  });
  // Why a page that was signed in came here (issue 29), read once: shown until this form is used.
  const [signedOut] = useState(readSignedOutReason);

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
    if (result.data) {
      setFailed(null);
      forgetSignedOutReason();
      login.mutate(result.data);
    } else document.getElementById(result.errors.username ? "login-username" : "login-password")?.focus();
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit} onFocus={preloadLoginRules}>
      {signedOut ? (
        <Alert variant={isRefusedAccount(signedOut) ? "destructive" : "default"} role="alert" data-testid="signed-out-reason">
          <CircleAlert aria-hidden="true" />
          <p>{SIGNED_OUT_MESSAGES[signedOut]}</p>
        </Alert>
      ) : null}
      {failed ? (
        <Alert variant="destructive" data-testid="login-failed">
          <CircleAlert aria-hidden="true" />
          <p>{failed}</p>
        </Alert>
      ) : null}
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
