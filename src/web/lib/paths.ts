/** Every path of the web app, written once. The router table in app/routes.tsx uses these. */
export const paths = {
  home: "/",
  login: "/login",
  auth: "/auth",
  register: "/auth?tab=register",
  dashboard: "/dashboard",
  settings: "/settings",
  checkout: "/checkout/early-access",
  terms: "/terms-of-service",
  privacy: "/privacy-policy",
  chat: "/chat",
  courses: "/courses",
  admin: "/admin",
} as const;

/** The sign-in screen, remembering where the visitor was going. */
export function loginPath(next?: string): string {
  return next && next !== paths.home ? `${paths.login}?next=${encodeURIComponent(next)}` : paths.login;
}
