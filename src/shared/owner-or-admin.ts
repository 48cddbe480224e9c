import type { Role } from "./constants.js";

/**
 * Who looks after what a user owns (a course, an upload): its owner, or any admin (issue 6).
 * The server's queries say the same with `lookedAfterBy()` (server/lib/who.ts).
 */

/** Admins look after everything users own. */
export const looksAfterAll = (who: { role: Role } | null | undefined): boolean => who?.role === "admin";

/** Whether `who` looks after a thing owned by `ownerId`: its owner, or an admin. */
export function ownerOrAdmin(who: { id: number; role: Role } | null | undefined, ownerId: number | null): boolean {
  return looksAfterAll(who) || (who !== null && who !== undefined && who.id === ownerId);
}
