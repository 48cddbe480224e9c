import { useEffect } from "react";
import { useLocation } from "wouter";
import { publicPageTitle } from "../../shared/prerender.js";
import { publicPageAt } from "../../shared/public-pages.js";
import { usePlatformSettings } from "../domain/platform-settings.js";
import { composeTitle, usePageTitleParts } from "../lib/page-title.js";
import { paths } from "../lib/paths.js";

/** index.html's description, for the pages that have none of their own. */
const APP_DESCRIPTION = "Chat with several AI models and build courses with AI help.";

function setMeta(selector: string, content: string): void {
  document.head.querySelector(selector)?.setAttribute("content", content);
}

/**
 * The head of the page shown: a public page (shared/public-pages.ts) has its own title and description, as
 * its prerendered HTML has (scripts/prerender.ts), also when reached by a link; every other page (and `/`
 * for a signed-in user: the dashboard) names itself with `usePageTitle` (lib/page-title.ts), followed by the
 * product name an admin set (Platform Settings): "Settings · Lumora".
 * index.html's title stays until the name is read. `homeIsLanding`: `/` shows the landing page (known to be
 * signed out), not the dashboard.
 */
export function PageHead({ homeIsLanding }: { homeIsLanding: boolean }) {
  const { settings, isPending } = usePlatformSettings();
  const [location] = useLocation();
  const found = publicPageAt(location);
  const page = found && (found.path !== paths.home || homeIsLanding) ? found : undefined;
  const name = settings.platformName;
  const own = usePageTitleParts();
  useEffect(() => {
    if (isPending) return;
    const title = page ? publicPageTitle(page, name) : composeTitle(own, name);
    const description = page?.description ?? APP_DESCRIPTION;
    document.title = title;
    setMeta('meta[name="description"]', description);
    setMeta('meta[property="og:title"]', title);
    setMeta('meta[property="og:description"]', description);
  }, [page, name, isPending, own]);
  return null;
}
