import { LogOut, Settings, Shield, UserRound } from "lucide-react";
import { Link } from "wouter";
import type { PublicUser } from "../../../../shared/contracts/user.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { UserAvatar } from "../../../components/user-avatar.js";
import { displayName } from "../../../domain/display-name.js";
import { paths } from "../../../lib/paths.js";
import { useLogout } from "../api.js";

/**
 * Avatar button with the account: name or username, email, Settings, Personalities, Admin (admins), Sign out. Not modal,
 * as the theme menu beside it (the page stays exposed while it is open: issue 32's aria-hidden-focus).
 */
export function UserMenu({ user }: { user: PublicUser }) {
  const logout = useLogout();
  const name = displayName(user);
  return (
    <LazyDropdownMenu
      modal={false}
      trigger={
        <button
          type="button"
          className="flex items-center gap-2 rounded-full p-0.5 outline-none focus-visible:ring-2 focus-visible:ring-ring md:rounded-md md:px-2 md:py-1 md:hover:bg-accent"
        >
          {/* The name comes from the text (WCAG 2.5.3, issue 29): "Account menu for <name>", whose visible part is the name. */}
          <span aria-hidden="true" className="contents">
            <UserAvatar user={user} className="size-8" />
          </span>
          <span className="sr-only">Account menu for </span>
          <span className="sr-only max-w-[10rem] truncate text-sm font-medium lg:not-sr-only">{name}</span>
        </button>
      }
    >
      {(ui) => (
        <ui.DropdownMenuContent align="end" className="w-60">
          <ui.DropdownMenuLabel className="flex flex-col gap-0.5">
            <span className="truncate font-medium">{name}</span>
            {user.email ? <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span> : null}
          </ui.DropdownMenuLabel>
          <ui.DropdownMenuSeparator />
          <ui.DropdownMenuItem asChild>
            <Link href={paths.settings}>
              <Settings aria-hidden="true" />
              Settings
            </Link>
          </ui.DropdownMenuItem>
          <ui.DropdownMenuItem asChild>
            <Link href={paths.personalities}>
              <UserRound aria-hidden="true" />
              Personalities
            </Link>
          </ui.DropdownMenuItem>
          {user.role === "admin" ? (
            <ui.DropdownMenuItem asChild>
              <Link href={paths.admin}>
                <Shield aria-hidden="true" />
                Admin
              </Link>
            </ui.DropdownMenuItem>
          ) : null}
          <ui.DropdownMenuSeparator />
          <ui.DropdownMenuItem
            disabled={logout.isPending}
            onSelect={(event) => {
              event.preventDefault();
              logout.mutate();
            }}
          >
            <LogOut aria-hidden="true" />
            {logout.isPending ? "Signing out..." : "Sign out"}
          </ui.DropdownMenuItem>
        </ui.DropdownMenuContent>
      )}
    </LazyDropdownMenu>
  );
}
