import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { EMAIL_PREVIEW_ROUTE } from "../../shared/email-preview-path.js";
import { adminApiTokensPath, adminMcpServersPath, adminSharesPath, quizEditRoute, shareRoute } from "../lib/app-paths.js";
import { paths } from "../lib/paths.js";
import {
  AdminAiPlatformsPage,
  AdminApiTokensPage,
  AdminContactMessagesPage,
  AdminEmailPreviewPage,
  AdminEmailSettingsPage,
  AdminGettingStartedVideosPage,
  AdminGlobalAiPromptsPage,
  AdminMcpServersPage,
  AdminPaymentSettingsPage,
  AdminPlatformSettingsPage,
  AdminSharesPage,
  AdminUserActivityPage,
  AdminUsersPage,
  AuthPage,
  CatalogCoursePage,
  CatalogPage,
  CatalogPreviewPage,
  CertificatePage,
  ChatPage,
  CheckoutPage,
  ContactPage,
  ContinueSharedChat,
  CourseDetailPage,
  CourseEditPage,
  CoursesPage,
  DashboardPage,
  FaqPage,
  FeaturesPage,
  ForgotPasswordPage,
  KnowledgePage,
  LandingPage,
  LessonPage,
  NotFoundPage,
  PersonalitiesPage,
  PricingPage,
  PrivacyPage,
  QuizEditorPage,
  QuizLesson,
  ResetPasswordPage,
  SettingsPage,
  SharePage,
  TermsPage,
} from "./lazy-pages.js";
import { CheckoutAccess, GuestOnly, HomeSwitch, NotFoundFrame, PublicPage, RequireAdmin, RequireAuth } from "./route-guards.js";

type RouteEntry = { path: string; render: () => ReactNode };

/** An admin page: signed-in admins only (others see Access Denied). */
function adminPage(path: string, page: () => ReactNode): RouteEntry[] {
  return [{ path, render: () => <RequireAdmin>{page()}</RequireAdmin> }];
}

/** The one route table. Order matters only for readability: paths are exact. */
export const routes: RouteEntry[] = [
  { path: paths.home, render: () => <HomeSwitch signedIn={<DashboardPage />} signedOut={<LandingPage />} /> },
  {
    path: paths.login,
    render: () => (
      <GuestOnly>
        <AuthPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.auth,
    render: () => (
      <GuestOnly>
        <AuthPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.forgotPassword,
    render: () => (
      <GuestOnly>
        <ForgotPasswordPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.resetPassword,
    render: () => (
      <GuestOnly>
        <ResetPasswordPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.checkout,
    render: () => (
      <CheckoutAccess>
        <CheckoutPage />
      </CheckoutAccess>
    ),
  },
  ...[
    { path: paths.features, page: () => <FeaturesPage /> },
    { path: paths.pricing, page: () => <PricingPage /> },
    { path: paths.faq, page: () => <FaqPage /> },
    { path: paths.contact, page: () => <ContactPage /> },
  ].map(({ path, page }) => ({ path, render: () => <PublicPage>{page()}</PublicPage> })),
  {
    path: paths.terms,
    render: () => (
      <PublicPage>
        <TermsPage />
      </PublicPage>
    ),
  },
  {
    path: paths.privacy,
    render: () => (
      <PublicPage>
        <PrivacyPage />
      </PublicPage>
    ),
  },
  {
    path: paths.certificateRoute,
    render: () => (
      <PublicPage>
        <CertificatePage />
      </PublicPage>
    ),
  },
  // The public catalogue (issue 33): visitors get these from the server, rendered with their data; here they read it.
  ...[
    { path: paths.catalog, page: () => <CatalogPage /> },
    { path: paths.catalogCourseRoute, page: () => <CatalogCoursePage /> },
    { path: paths.catalogPreviewRoute, page: () => <CatalogPreviewPage /> },
  ].map(({ path, page }) => ({ path, render: () => <PublicPage>{page()}</PublicPage> })),
  {
    // Written by the server with the snapshot (decision 043); a link that does not work is the not-found page.
    path: shareRoute,
    render: () => (
      <PublicPage>
        <SharePage continueAction={(token) => <ContinueSharedChat token={token} />} notFound={renderNotFound()} />
      </PublicPage>
    ),
  },
  {
    path: paths.dashboard,
    render: () => (
      <RequireAuth>
        <DashboardPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.chatRoute,
    render: () => (
      <RequireAuth>
        <ChatPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.settings,
    render: () => (
      <RequireAuth>
        <SettingsPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.knowledge,
    render: () => (
      <RequireAuth>
        <KnowledgePage />
      </RequireAuth>
    ),
  },
  {
    path: paths.personalities,
    render: () => (
      <RequireAuth>
        <PersonalitiesPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.courses,
    render: () => (
      <RequireAuth>
        <CoursesPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.courseRoute,
    render: () => (
      <RequireAuth>
        <CourseDetailPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.courseEditRoute,
    render: () => (
      <RequireAuth>
        <CourseEditPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.lessonRoute,
    render: () => (
      <RequireAuth>
        <LessonPage quizView={QuizLesson} />
      </RequireAuth>
    ),
  },
  {
    path: quizEditRoute,
    render: () => (
      <RequireAuth>
        <QuizEditorPage />
      </RequireAuth>
    ),
  },
  // Any other course path goes to /courses.
  {
    path: paths.coursesAny,
    render: () => (
      <RequireAuth>
        <Redirect to={paths.courses} replace />
      </RequireAuth>
    ),
  },
  // /admin redirects to /admin/users and an unknown admin path shows the users page.
  {
    path: paths.admin,
    render: () => (
      <RequireAdmin>
        <Redirect to={paths.adminUsers} replace />
      </RequireAdmin>
    ),
  },
  ...adminPage(paths.adminUsers, () => <AdminUsersPage />),
  ...adminPage(paths.adminAiPlatforms, () => <AdminAiPlatformsPage />),
  ...adminPage(adminMcpServersPath, () => <AdminMcpServersPage />),
  ...adminPage(paths.adminPrompts, () => <AdminGlobalAiPromptsPage />),
  ...adminPage(paths.adminSettings, () => <AdminPlatformSettingsPage />),
  ...adminPage(paths.adminEmailSettings, () => <AdminEmailSettingsPage />),
  ...adminPage(EMAIL_PREVIEW_ROUTE, () => <AdminEmailPreviewPage />),
  ...adminPage(paths.adminVideos, () => <AdminGettingStartedVideosPage />),
  ...adminPage(paths.adminPaymentSettings, () => <AdminPaymentSettingsPage />),
  ...adminPage(paths.adminActivity, () => <AdminUserActivityPage />),
  ...adminPage(paths.adminContactMessages, () => <AdminContactMessagesPage />),
  ...adminPage(adminSharesPath, () => <AdminSharesPage />),
  ...adminPage(adminApiTokensPath, () => <AdminApiTokensPage />),
  ...adminPage(paths.adminAny, () => <AdminUsersPage />),
];

/** Any other address (the server answered it 404): the not-found screen inside the site's own frame. */
export const renderNotFound = () => (
  <NotFoundFrame>
    <NotFoundPage />
  </NotFoundFrame>
);
