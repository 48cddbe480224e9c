import { lazy } from "react";

/**
 * The public pages, each its own chunk: shared by the signed-in app (lazy-pages.ts) and the prerendered
 * pages' own small app (public-app.tsx).
 */
export const LandingPage = lazy(() => import("../features/landing/pages/landing-page.js").then((m) => ({ default: m.LandingPage })));
export const FeaturesPage = lazy(() => import("../features/public/pages/features-page.js").then((m) => ({ default: m.FeaturesPage })));
export const PricingPage = lazy(() => import("../features/public/pages/pricing-page.js").then((m) => ({ default: m.PricingPage })));
export const FaqPage = lazy(() => import("../features/public/pages/faq-page.js").then((m) => ({ default: m.FaqPage })));
export const ContactPage = lazy(() => import("../features/public/pages/contact-page.js").then((m) => ({ default: m.ContactPage })));
export const TermsPage = lazy(() => import("../features/legal/pages/terms-page.js").then((m) => ({ default: m.TermsPage })));
export const CertificatePage = lazy(() =>
  import("../features/public/pages/certificate-page.js").then((m) => ({ default: m.CertificatePage })),
);
export const PrivacyPage = lazy(() => import("../features/legal/pages/privacy-page.js").then((m) => ({ default: m.PrivacyPage })));
export const CatalogPage = lazy(() => import("../features/catalog/pages/catalog-page.js").then((m) => ({ default: m.CatalogPage })));
export const CatalogCoursePage = lazy(() =>
  import("../features/catalog/pages/catalog-course-page.js").then((m) => ({ default: m.CatalogCoursePage })),
);
export const CatalogPreviewPage = lazy(() =>
  import("../features/catalog/pages/catalog-preview-page.js").then((m) => ({ default: m.CatalogPreviewPage })),
);
