/**
 * The public pages (issue 13): what is prerendered at build time, listed in /sitemap.xml, and given its
 * own head (title, description, Open Graph). `/` is the landing page for visitors (signed-in users get
 * the dashboard there). The product name is added to each title where it is shown.
 */
export interface PublicPage {
  path: string;
  /** A file name for the prerendered HTML. */
  slug: string;
  title: string;
  description: string;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    path: "/",
    slug: "landing",
    title: "AI chat and AI course building in one place",
    description:
      "Chat with OpenAI, Claude, Deepseek and Mistral in one workspace, save training personalities, and build full courses with AI.",
  },
  {
    path: "/features",
    slug: "features",
    title: "Features",
    description: "From a topic to a finished course: AI outlines, lessons, training personalities and multi-model chat.",
  },
  {
    path: "/pricing",
    slug: "pricing",
    title: "Pricing",
    description: "Start free, or unlock every premium feature with a one-time Early Access payment.",
  },
  {
    path: "/faq",
    slug: "faq",
    title: "Frequently asked questions",
    description: "Answers about accounts, Early Access, features and support.",
  },
  { path: "/contact", slug: "contact", title: "Contact us", description: "Questions, support or partnerships: send us a message." },
  {
    path: "/terms-of-service",
    slug: "terms-of-service",
    title: "Terms of Service",
    description: "The terms that apply when you use the platform.",
  },
  {
    path: "/privacy-policy",
    slug: "privacy-policy",
    title: "Privacy Policy",
    description: "What we collect, how AI requests are handled, and how to delete your data.",
  },
];

/** The public page at this path (query and trailing slash ignored), or undefined. */
export function publicPageAt(path: string): PublicPage | undefined {
  const clean = (path.split(/[?#]/)[0] ?? "/").replace(/(.)\/+$/, "$1");
  return PUBLIC_PAGES.find((page) => page.path === clean);
}
