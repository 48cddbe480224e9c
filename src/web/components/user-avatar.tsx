import type { PublicUser } from "../../shared/contracts/user.js";
import { getInitials } from "../../shared/initials.js";
import { cn } from "../lib/cn.js";
import { Avatar, AvatarFallback, AvatarImage } from "./ui/avatar.js";

/** The user's photo, or their initials (docs/product.md, Accounts). */
export function UserAvatar({
  user,
  className,
  fallbackClassName,
}: {
  user: Pick<PublicUser, "name" | "username" | "avatarUrl"> | null;
  className?: string;
  fallbackClassName?: string;
}) {
  const alt = user?.name?.trim() || user?.username || "User";
  return (
    <Avatar className={className}>
      {user?.avatarUrl ? <AvatarImage src={user.avatarUrl} alt={alt} /> : null}
      <AvatarFallback className={cn("text-sm", fallbackClassName)} aria-label={alt}>
        {getInitials(user)}
      </AvatarFallback>
    </Avatar>
  );
}
