import type { Role } from "../../../../../shared/constants.js";
import type { UserStatus } from "../../../../../shared/contracts/admin-users.js";

export const ROLE_LABELS: Record<Role, string> = { user: "User", admin: "Admin" };
export const STATUS_LABELS: Record<UserStatus, string> = { active: "Active", inactive: "Inactive" };

const joined = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" });
/** The joined date shows as month and year ("November 2025"). */
export function formatJoined(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? "" : joined.format(date);
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat("en-US");
/** 1234 → "1.2K" (the table); the exact number goes in a title and in the edit dialog. */
export const formatTokensShort = (tokens: number) => compact.format(tokens);
export const formatTokens = (tokens: number) => exact.format(tokens);

/** The name people see: the full name, or the username when there is none. */
export const displayNameOf = (user: { name: string | null; username: string }) => user.name?.trim() || user.username;
