import { ChevronRight, GraduationCap, MessageSquarePlus, Settings, Shield } from "lucide-react";
import { Link } from "wouter";
import { Badge } from "../../../components/ui/badge.js";
import { cn } from "../../../lib/cn.js";
import { COURSE_FEATURE_NAME } from "../../../lib/feature-names.js";
import { paths } from "../../../lib/paths.js";

type Action = { href: string; label: string; text: string; icon: typeof Settings; beta?: boolean };

const actions: Action[] = [
  { href: paths.chat, label: "Start a New Chat", text: "Ask a question to any model", icon: MessageSquarePlus },
  { href: paths.courses, label: COURSE_FEATURE_NAME, text: "Create a course with AI help", icon: GraduationCap, beta: true },
  { href: paths.settings, label: "Customize Settings", text: "Profile, password and AI preferences", icon: Settings },
];
const adminAction: Action = { href: paths.admin, label: "Admin Dashboard", text: "Users, platforms and content", icon: Shield };

/** Shortcuts; Admin Dashboard only for admins. */
export function QuickActions({ isAdmin }: { isAdmin: boolean }) {
  const list = isAdmin ? [...actions, adminAction] : actions;
  return (
    <section aria-labelledby="quick-actions-heading" className="grid gap-4">
      <h2 id="quick-actions-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
        Quick Actions
      </h2>
      {/* Every row full: three actions line up with Key Features' three columns above, four fill a row of four. */}
      <ul className={cn("grid gap-4", list.length === 4 ? "sm:grid-cols-2 lg:grid-cols-4" : "lg:grid-cols-3")}>
        {list.map(({ href, label, text, icon: Icon, beta }) => (
          <li key={href}>
            <Link
              href={href}
              className="group flex h-full items-center gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span className="grid flex-1 gap-0.5">
                <span className="flex items-center gap-2 font-medium">
                  {label}
                  {beta ? <Badge variant="beta">BETA</Badge> : null}
                </span>
                <span className="text-xs text-muted-foreground">{text}</span>
              </span>
              <ChevronRight className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
