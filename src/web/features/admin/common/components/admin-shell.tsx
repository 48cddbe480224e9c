import {
  Activity,
  Bot,
  CreditCard,
  Inbox,
  KeyRound,
  Link2,
  type LucideIcon,
  Mail,
  MessageSquareText,
  PanelLeftClose,
  PanelLeftOpen,
  PlayCircle,
  Settings,
  Users,
  Wrench,
} from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Link, useLocation } from "wouter";
import { Button } from "../../../../components/ui/button.js";
import { adminApiTokensPath, adminMcpServersPath, adminSharesPath } from "../../../../lib/app-paths.js";
import { cn } from "../../../../lib/cn.js";
import { paths } from "../../../../lib/paths.js";

/** `within`: other paths that belong to the entry (an email preview is part of Email Settings). */
type MenuEntry = { href: string; label: string; icon: LucideIcon; within?: string[] };

/**
 * The admin side menu. The back office began with, in this order: Users, AI Chat Settings,
 * Global AI Prompts, Platform Settings, Email Settings, Getting Started Videos,
 * Payment Settings, User Activity. Only pages that exist are listed: each
 * later admin page adds its entry here, at its place in that order.
 */
const entries: MenuEntry[] = [
  { href: paths.adminUsers, label: "Users", icon: Users },
  { href: paths.adminAiPlatforms, label: "AI Chat Settings", icon: Bot },
  // Beyond the first eight entries: the chat's tools from MCP servers (issue 34), beside the AI platforms.
  { href: adminMcpServersPath, label: "MCP Servers", icon: Wrench },
  { href: paths.adminPrompts, label: "Global AI Prompts", icon: MessageSquareText },
  { href: paths.adminSettings, label: "Platform Settings", icon: Settings },
  { href: paths.adminEmailSettings, label: "Email Settings", icon: Mail, within: [paths.adminEmailPreview] },
  { href: paths.adminVideos, label: "Getting Started Videos", icon: PlayCircle },
  { href: paths.adminPaymentSettings, label: "Payment Settings", icon: CreditCard },
  { href: paths.adminActivity, label: "User Activity", icon: Activity },
  // Beyond the first eight entries: the contact form's messages (issue 13).
  { href: paths.adminContactMessages, label: "Contact Messages", icon: Inbox },
  // Issue 33: every chat share link, with revoke.
  { href: adminSharesPath, label: "Shared Links", icon: Link2 },
  // Issue 35: every personal API token, with revoke.
  { href: adminApiTokensPath, label: "API Tokens", icon: KeyRound },
];

/** The menu starts collapsed below 1024 px. Kept while moving between admin pages. */
let rememberedCollapsed: boolean | null = null;
const wideScreen = () => typeof window === "undefined" || window.matchMedia("(min-width: 1024px)").matches;
const startsCollapsed = () => rememberedCollapsed ?? !wideScreen();

/** Admin pages: a collapsible side menu beside the page (over it below 1024 px), inside the signed-in layout. */
export function AdminShell({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(startsCollapsed);
  const [location] = useLocation();
  const listId = useId();
  const toggle = () => {
    rememberedCollapsed = !collapsed;
    setCollapsed(!collapsed);
  };
  // Below 1024 px the open menu lies over the page (it keeps the collapsed menu's room): choosing a page closes it.
  const chose = () => {
    if (!wideScreen()) {
      rememberedCollapsed = true;
      setCollapsed(true);
    }
  };
  // An unknown admin path shows the default page, so its entry is the current one.
  const current =
    entries.find((e) => [e.href, ...(e.within ?? [])].some((href) => location === href || location.startsWith(`${href}/`)))?.href ??
    entries[0]?.href;

  return (
    <div className="flex items-start gap-4 md:gap-6">
      {/* Below lg the open menu overflows its collapsed room, over the page, rather than squeezing the page. */}
      <div className={cn("sticky top-20 z-30 w-14 shrink-0", !collapsed && "lg:w-56")}>
        <nav
          aria-label="Admin"
          className={cn("rounded-xl border bg-card p-2 shadow-sm", collapsed ? "w-14" : "w-56 shadow-lg lg:shadow-sm")}
        >
          <div className={cn("mb-1 flex items-center", collapsed ? "justify-center" : "justify-between pl-2")}>
            {collapsed ? null : <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Admin</span>}
            <Button
              variant="ghost"
              size="icon"
              className="size-9"
              aria-label={collapsed ? "Expand menu" : "Collapse menu"}
              aria-expanded={!collapsed}
              aria-controls={listId}
              onClick={toggle}
            >
              {collapsed ? <PanelLeftOpen aria-hidden="true" /> : <PanelLeftClose aria-hidden="true" />}
            </Button>
          </div>
          <ul id={listId} className="grid gap-1">
            {entries.map(({ href, label, icon: Icon }) => (
              <li key={href}>
                <Link
                  href={href}
                  title={collapsed ? label : undefined}
                  aria-current={href === current ? "page" : undefined}
                  onClick={chose}
                  className={cn(
                    "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                    href === current ? "bg-accent text-accent-foreground" : "text-muted-foreground",
                    collapsed && "justify-center px-0",
                  )}
                >
                  <Icon className="size-4 shrink-0" aria-hidden="true" />
                  <span className={cn(collapsed && "sr-only")}>{label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
