import { useLocation } from "wouter";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { Logo } from "../../../components/logo.js";
import { cn } from "../../../lib/cn.js";
import { paths } from "../../../lib/paths.js";
import { MobileMenu } from "./mobile-menu.js";
import { NavLinks } from "./nav-links.js";
import { ThemeToggle } from "./theme-toggle.js";
import { UserMenu } from "./user-menu.js";

/** The signed-in top bar; on the chat (which fills the viewport) it spans the whole width too. */
export function TopNav({ user }: { user: PublicUser }) {
  const [location] = useLocation();
  const fullWidth = location === paths.chat || location.startsWith(`${paths.chat}/`);
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className={cn("mx-auto flex h-16 items-center gap-2 px-4 sm:px-6", !fullWidth && "max-w-7xl")}>
        <MobileMenu current={location} />
        <Logo className="mr-4" />
        <nav aria-label="Main" className="hidden md:block">
          <NavLinks current={location} />
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle />
          <UserMenu user={user} />
        </div>
      </div>
    </header>
  );
}
