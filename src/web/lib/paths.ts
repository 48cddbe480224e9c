/** Every path of the web app, written once. The router table in app/routes.tsx uses these. */
export const paths = {
  home: "/",
  login: "/login",
  auth: "/auth",
  register: "/auth?tab=register",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  dashboard: "/dashboard",
  settings: "/settings",
  personalities: "/personalities",
  knowledge: "/knowledge",
  checkout: "/checkout/early-access",
  terms: "/terms-of-service",
  features: "/features",
  pricing: "/pricing",
  faq: "/faq",
  contact: "/contact",
  privacy: "/privacy-policy",
  chat: "/chat",
  /** /chat and /chat/{id} in one route, so the page stays mounted while a new chat gets its id. */
  chatRoute: "/chat/:id?",
  /** A certificate's public verification page (issue 32): anyone, signed in or not. */
  certificateRoute: "/certificates/:code",
  /** The public course catalogue (issue 33): the list, a course's landing page, its first lesson as a preview. */
  catalog: "/catalog",
  catalogCourseRoute: "/catalog/:slug",
  catalogPreviewRoute: "/catalog/:slug/preview",
  courses: "/courses",
  courseRoute: "/courses/:id",
  courseEditRoute: "/courses/:id/edit",
  lessonRoute: "/courses/:courseId/lessons/:lessonId",
  /** Any other /courses path (wouter pattern): redirects to /courses. */
  coursesAny: "/courses/*",
  admin: "/admin",
  adminUsers: "/admin/users",
  adminAiPlatforms: "/admin/ai-platforms",
  adminPrompts: "/admin/global-ai-prompts",
  adminSettings: "/admin/settings",
  adminEmailSettings: "/admin/email-settings",
  /** One outbox email (`/admin/email-preview/{id}`). */
  adminEmailPreview: "/admin/email-preview",
  adminVideos: "/admin/getting-started",
  adminPaymentSettings: "/admin/payment-settings",
  adminActivity: "/admin/user-activity",
  adminContactMessages: "/admin/contact-messages",
  /** Any other admin path (wouter pattern): shows the default admin page. */
  adminAny: "/admin/*",
} as const;

/** One chat's screen. */
export function chatPath(id: number): string {
  return `${paths.chat}/${id}`;
}

/** One course's detail screen. */
export function coursePath(id: number): string {
  return `${paths.courses}/${id}`;
}

/** The course editor. */
export function courseEditPath(id: number): string {
  return `${paths.courses}/${id}/edit`;
}

/** The lesson reader. */
export function lessonPath(courseId: number, lessonId: number): string {
  return `${paths.courses}/${courseId}/lessons/${lessonId}`;
}

/** A catalogue course's landing page. */
export function catalogCoursePath(slug: string): string {
  return `${paths.catalog}/${slug}`;
}

/** A catalogue course's preview lesson. */
export function catalogPreviewPath(slug: string): string {
  return `${paths.catalog}/${slug}/preview`;
}

/** The registration form, then (once registered or signed in) `next`, a same-site path. */
export function registerPath(next: string): string {
  return `${paths.register}&next=${encodeURIComponent(next)}`;
}

/** The sign-in screen, remembering where the visitor was going. */
export function loginPath(next?: string): string {
  return next && next !== paths.home ? `${paths.login}?next=${encodeURIComponent(next)}` : paths.login;
}

/** The Early Access checkout, coming back to `from` (a same-site path) once paid. */
export function earlyAccessCheckoutPath(from?: string | null): string {
  return from && from !== paths.checkout ? `${paths.checkout}?from=${encodeURIComponent(from)}` : paths.checkout;
}
