import { createElement, lazy } from "react";
import { PageSpinner } from "../components/ui/spinner.js";
import { preloadable } from "../lib/preloadable.js";

export {
  CatalogCoursePage,
  CatalogPage,
  CatalogPreviewPage,
  CertificatePage,
  ContactPage,
  FaqPage,
  FeaturesPage,
  LandingPage,
  PricingPage,
  PrivacyPage,
  TermsPage,
} from "./public-lazy-pages.js";

/**
 * Every page (and the signed-in shell) is its own chunk, so /auth never
 * downloads the dashboard's or the settings' code.
 */
/** The page's spinner while a preloadable page's code arrives (drawn as the Suspense fallback around it was). */
const pageSpinner = () => createElement(PageSpinner);
export const AppLayout = preloadable(() => import("./layouts/app-layout.js").then((m) => m.AppLayout), pageSpinner);
export const AuthPage = lazy(() => import("../features/auth/pages/auth-page-in-app.js").then((m) => ({ default: m.AuthPageInApp })));
export const ForgotPasswordPage = lazy(() =>
  import("../features/password-reset/pages/forgot-password-page.js").then((m) => ({ default: m.ForgotPasswordPage })),
);
export const ResetPasswordPage = lazy(() =>
  import("../features/password-reset/pages/reset-password-page.js").then((m) => ({ default: m.ResetPasswordPage })),
);
export const CheckoutPage = lazy(() =>
  import("../features/checkout/pages/early-access-checkout-page.js").then((m) => ({ default: m.EarlyAccessCheckoutPage })),
);
export const DashboardPage = lazy(() =>
  import("../features/dashboard/pages/dashboard-page.js").then((m) => ({ default: m.DashboardPage })),
);
/** The shell and the chat can be fetched at boot (`first-screen-prefetch.ts`). */
export const ChatPage = preloadable(() => import("../features/chat/pages/chat-page.js").then((m) => m.ChatPage), pageSpinner);
export const SettingsPage = lazy(() => import("../features/settings/pages/settings-page.js").then((m) => ({ default: m.SettingsPage })));
export const KnowledgePage = lazy(() =>
  import("../features/knowledge/pages/knowledge-page.js").then((m) => ({ default: m.KnowledgePage })),
);
export const PersonalitiesPage = lazy(() =>
  import("../features/personalities/pages/personalities-page.js").then((m) => ({ default: m.PersonalitiesPage })),
);
export const CoursesPage = lazy(() => import("../features/courses/pages/courses-page.js").then((m) => ({ default: m.CoursesPage })));
export const CourseDetailPage = lazy(() =>
  import("../features/courses/pages/course-detail-page.js").then((m) => ({ default: m.CourseDetailPage })),
);
export const CourseEditPage = lazy(() =>
  import("../features/courses/pages/course-edit-page.js").then((m) => ({ default: m.CourseEditPage })),
);
export const LessonPage = lazy(() => import("../features/courses/pages/lesson-page.js").then((m) => ({ default: m.LessonPage })));
/** Quizzes (decision 040): the owner's editor is a page; the learner's quiz is drawn by the lesson page, given it by the route table. */
export const QuizEditorPage = lazy(() =>
  import("../features/quizzes/pages/quiz-editor-page.js").then((m) => ({ default: m.QuizEditorPage })),
);
export const QuizLesson = lazy(() => import("../features/quizzes/components/quiz-lesson.js").then((m) => ({ default: m.QuizLesson })));
/** A shared chat (issue 33): the app draws it for visitors and signed-in readers (decision 043). */
export const SharePage = lazy(() => import("../features/public/pages/share-page.js").then((m) => ({ default: m.SharePage })));
export const AdminSharesPage = lazy(() =>
  import("../features/admin/sharing/pages/shares-page.js").then((m) => ({ default: m.SharesPage })),
);
export const AdminApiTokensPage = lazy(() =>
  import("../features/admin/tokens/pages/api-tokens-page.js").then((m) => ({ default: m.ApiTokensPage })),
);
export const ContinueSharedChat = lazy(() =>
  import("../features/chat/components/continue-shared-chat.js").then((m) => ({ default: m.ContinueSharedChat })),
);
export const AdminContactMessagesPage = lazy(() =>
  import("../features/admin/content/pages/contact-messages-page.js").then((m) => ({ default: m.ContactMessagesPage })),
);
/** The public header and footer, for the not-found screen of a visitor (the public pages import it themselves). */
export const PublicLayout = lazy(() => import("../components/public-site/public-layout.js").then((m) => ({ default: m.PublicLayout })));
export const NotFoundPage = lazy(() => import("../features/errors/pages/not-found-page.js").then((m) => ({ default: m.NotFoundPage })));
export const AdminAiPlatformsPage = lazy(() =>
  import("../features/admin/platform/pages/ai-platforms-page.js").then((m) => ({ default: m.AiPlatformsPage })),
);
export const AdminMcpServersPage = lazy(() =>
  import("../features/admin/tools/pages/mcp-servers-page.js").then((m) => ({ default: m.McpServersPage })),
);
export const AccessDeniedPage = lazy(() =>
  import("../features/admin/common/pages/access-denied-page.js").then((m) => ({ default: m.AccessDeniedPage })),
);
export const AdminPaymentSettingsPage = lazy(() =>
  import("../features/admin/payments/pages/payment-settings-page.js").then((m) => ({ default: m.PaymentSettingsPage })),
);
export const AdminUsersPage = lazy(() => import("../features/admin/users/pages/users-page.js").then((m) => ({ default: m.UsersPage })));
export const AdminPlatformSettingsPage = lazy(() =>
  import("../features/admin/platform/pages/platform-settings-page.js").then((m) => ({ default: m.PlatformSettingsPage })),
);
export const AdminGlobalAiPromptsPage = lazy(() =>
  import("../features/admin/content/pages/global-ai-prompts-page.js").then((m) => ({ default: m.GlobalAiPromptsPage })),
);
export const AdminGettingStartedVideosPage = lazy(() =>
  import("../features/admin/content/pages/getting-started-videos-page.js").then((m) => ({ default: m.GettingStartedVideosPage })),
);
export const AdminUserActivityPage = lazy(() =>
  import("../features/admin/activity/pages/user-activity-page.js").then((m) => ({ default: m.UserActivityPage })),
);
export const AdminEmailSettingsPage = lazy(() =>
  import("../features/admin/email/pages/email-settings-page.js").then((m) => ({ default: m.EmailSettingsPage })),
);
export const AdminEmailPreviewPage = lazy(() =>
  import("../features/admin/email/pages/email-preview-page.js").then((m) => ({ default: m.EmailPreviewPage })),
);
