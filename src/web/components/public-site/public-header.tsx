import { Link, useLocation } from "wouter";
import { usePlatformSettings } from "../../domain/platform-settings.js";
import { useSignedInUser } from "../../domain/public-reads.js";
import { cn } from "../../lib/cn.js";
import { Logo } from "../logo.js";
import { PhoneMenu } from "../phone-menu.js";
import { Button } from "../ui/button.js";
import { accountLinks, PAGE_LINKS } from "./public-nav.js";

const linkClass =
  "rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring";

/** The phone menu: the same links as the header, in a slide-in panel. */
function PublicPhoneMenu({ current, links }: { current: string; links: ReturnType<typeof accountLinks> }) {
  const { secondary, primary } = links;
  return (
    <PhoneMenu title="Menu" description="The site's pages and your account.">
      {(close) => (
        <nav aria-label="Mobile" className="grid gap-1">
          {(secondary ? [...PAGE_LINKS, secondary] : PAGE_LINKS).map((link) => (
            <Link
              key={link.href}
              href={link.href}
              onClick={close}
              aria-current={current === link.href ? "page" : undefined}
              className={cn(linkClass, "py-3 text-base", current === link.href ? "bg-accent text-accent-foreground" : "text-foreground")}
            >
              {link.label}
            </Link>
          ))}
          <Button asChild className="mt-2">
            <Link href={primary.href} onClick={close}>
              {primary.label}
            </Link>
          </Button>
        </nav>
      )}
    </PhoneMenu>
  );
}

/**
 * The public header: the product, Features and Pricing; Dashboard and Chat when signed in, otherwise Login
 * and Get Started. While the session is read it shows the signed-out links (what the prerendered HTML has).
 */
export function PublicHeader() {
  const user = useSignedInUser();
  const [location] = useLocation();
  const { settings } = usePlatformSettings();
  const links = accountLinks(Boolean(user), settings.allowRegistration);
  const { secondary, primary } = links;
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-4 sm:gap-2 sm:px-6">
        <PublicPhoneMenu current={location} links={links} />
        <Logo className="mr-4" />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {PAGE_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={location === link.href ? "page" : undefined}
                  className={cn(linkClass, location === link.href ? "bg-accent text-accent-foreground" : "text-muted-foreground")}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {secondary ? (
            <Button variant="ghost" asChild className="hidden md:inline-flex">
              <Link href={secondary.href}>{secondary.label}</Link>
            </Button>
          ) : null}
          <Button asChild size="sm" className="sm:h-10 sm:px-4 sm:text-sm">
            <Link href={primary.href}>{primary.label}</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}
