import { type AnyColumn, eq, type SQL } from "drizzle-orm";
import type { TokenScope } from "../../shared/contracts/endpoint.js";
import { looksAfterAll } from "../../shared/owner-or-admin.js";

/**
 * The signed-in person a service acts for: every service takes `{ db, who, ... }`, and ownership goes into
 * its queries (`where owner = who.id`). Set by the session plugin from the session cache, never from input.
 */
export type Who = {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
  avatarUrl: string | null;
  createdAt: Date;
  /**
   * Set only when a personal API token made the request (decision 049): its scopes, which limit what the request may
   * reach beyond its route, such as the library (`library-access.ts`, decision 056). Absent for a session.
   */
  token?: { scopes: readonly TokenScope[] };
};

/**
 * The rows `who` looks after (their owner's, or every row for an admin: `ownerOrAdmin` in shared/owner-or-admin.ts),
 * as a query's condition on the owner column; none for an admin.
 */
export function lookedAfterBy(who: Pick<Who, "id" | "role">, ownerColumn: AnyColumn): SQL | undefined {
  return looksAfterAll(who) ? undefined : eq(ownerColumn, who.id);
}
