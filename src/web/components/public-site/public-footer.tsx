import { Link } from "wouter";
import { usePlatformName } from "../../domain/platform-settings.js";
import { Logo } from "../logo.js";
import { FOOTER_LINKS } from "./public-nav.js";

/** The public footer: the product, the site's pages and legal links, © year and name. */
export function PublicFooter() {
  const name = usePlatformName();
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_auto] md:items-start">
        <div className="grid justify-items-start gap-3">
          <Logo />
          <p className="max-w-sm text-sm text-muted-foreground">
            AI chat with every leading model, Training Personalities you shape once, and a course builder that writes with you.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-10 gap-y-2 text-sm sm:grid-cols-3">
            {FOOTER_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  className="rounded-sm text-muted-foreground outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-muted-foreground sm:px-6">
          {/* The prerendered year stays until the next build: the client's clock may differ, which is no error. */}©{" "}
          <span suppressHydrationWarning>{new Date().getFullYear()}</span> {name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
