import type { LoginBody } from "../../../shared/contracts/auth.js";

export type LoginErrors = Partial<Record<keyof LoginBody, string>>;

let schema: Promise<typeof import("../../../shared/contracts/auth.js")> | null = null;

/** Starts loading the shared login rules (zod) early, e.g. when the form gets focus. */
export function preloadLoginRules(): void {
  schema ??= import("../../../shared/contracts/auth.js");
}

/**
 * Checks the Login form with the shared loginBodySchema. zod is loaded on
 * demand so the first screen of /auth stays small.
 */
export async function validateLogin(values: LoginBody): Promise<{ data: LoginBody | null; errors: LoginErrors }> {
  preloadLoginRules();
  const { loginBodySchema } = await (schema as NonNullable<typeof schema>);
  const result = loginBodySchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: LoginErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof LoginBody;
    errors[field] ??= issue.message;
  }
  return { data: null, errors };
}
