/**
 * What the activity log records (docs/product.md, Admin back office: User Activity; issue 10), each with the IP and
 * user agent of the request (none for the server's own rows). An admin's acts on an account (issue 29) also name the admin.
 */
export const ACTIVITY_ACTIONS = [
  "login",
  "logout",
  "failed_login",
  "register",
  "password_change",
  "password_reset",
  "account_disabled",
  "account_enabled",
  "plan_change",
  "early_access_purchase",
  "user_deleted",
  "plan_allowances_change",
  "user_created",
  "profile_change",
  "role_change",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

const NAMED: Partial<Record<string, string>> = { login: "Login", logout: "Logout", failed_login: "Failed Login Attempt" };

/** Login, logout and failed_login have their own labels; other types are title-cased, underscores as spaces. */
export function activityLabel(action: string): string {
  return (
    NAMED[action] ??
    action
      .split("_")
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(" ")
  );
}
