import { GraduationCap, LayoutDashboard, Library, MessageSquare } from "lucide-react";
import { Link } from "wouter";
import { Badge } from "../../../components/ui/badge.js";
import { cn } from "../../../lib/cn.js";
import { COURSE_FEATURE_NAME } from "../../../lib/feature-names.js";
import { paths } from "../../../lib/paths.js";

const links = [
  { href: paths.home, label: "Dashboard", icon: LayoutDashboard, beta: false, match: [paths.home, paths.dashboard] },
  { href: paths.chat, label: "Chat", icon: MessageSquare, beta: false, match: [paths.chat] },
  { href: paths.knowledge, label: "Knowledge", icon: Library, beta: false, match: [paths.knowledge] },
  { href: paths.courses, label: COURSE_FEATURE_NAME, icon: GraduationCap, beta: true, match: [paths.courses] },
] as const;

/** Dashboard, Chat, Knowledge and the Course AI Builder, in a row (desktop) or a column (mobile menu). */
export function NavLinks({ vertical = false, current, onNavigate }: { vertical?: boolean; current: string; onNavigate?: () => void }) {
  return (
    <ul className={cn("flex gap-1", vertical ? "flex-col" : "items-center")}>
      {links.map(({ href, label, icon: Icon, beta, match }) => {
        const active = (match as readonly string[]).some((p) => current === p || (p !== "/" && current.startsWith(`${p}/`)));
        return (
          <li key={href}>
            <Link
              href={href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                active ? "bg-accent text-accent-foreground" : "text-muted-foreground",
                vertical && "py-3 text-base",
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
              {beta ? <Badge variant="beta">BETA</Badge> : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
