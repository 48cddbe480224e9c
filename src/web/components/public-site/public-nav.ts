import { paths } from "../../lib/paths.js";

export interface PublicNavLink {
  href: string;
  label: string;
}

/** The header's page links (Features and Pricing for everyone; the FAQ page's header names the FAQ too). */
export const PAGE_LINKS: readonly PublicNavLink[] = [
  { href: paths.features, label: "Features" },
  /** Issue 33: the public course catalogue. */
  { href: paths.catalog, label: "Courses" },
  { href: paths.pricing, label: "Pricing" },
  { href: paths.faq, label: "FAQ" },
];

/**
 * The header's account links: into the app when signed in, otherwise Login and Get Started; with registration
 * closed, only Sign in (Get Started would lead to a closed registration).
 */
export function accountLinks(signedIn: boolean, registrationOpen: boolean): { secondary: PublicNavLink | null; primary: PublicNavLink } {
  if (signedIn) return { secondary: { href: paths.dashboard, label: "Dashboard" }, primary: { href: paths.chat, label: "Chat" } };
  if (!registrationOpen) return { secondary: null, primary: { href: paths.login, label: "Sign in" } };
  return { secondary: { href: paths.login, label: "Login" }, primary: { href: paths.register, label: "Get Started" } };
}

/** The footer's links (docs/product.md, Public pages). */
export const FOOTER_LINKS: readonly PublicNavLink[] = [
  { href: paths.features, label: "Features" },
  { href: paths.catalog, label: "Course catalog" },
  { href: paths.pricing, label: "Pricing" },
  { href: paths.contact, label: "Contact" },
  { href: paths.faq, label: "FAQ" },
  { href: paths.terms, label: "Terms of Service" },
  { href: paths.privacy, label: "Privacy Policy" },
];
