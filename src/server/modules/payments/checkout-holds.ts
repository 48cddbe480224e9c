import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { CHECKOUT_HOLD_IDLE_MS, holdLiveSince } from "../auth/auth-service.js";
import { tooMany } from "../auth/login-throttle.js";

/** How many live registration checkouts (each holding a username and an email) one address may have at once. */
export const HOLDS_PER_ADDRESS = 5;
export const TOO_MANY_HOLDS = `Too many registrations from your network are waiting for their payment (at most ${HOLDS_PER_ADDRESS} at once). Finish or close one of them first.`;
const ADDRESS_LOCK = 727_031;

/** Whether this registration still holds its username and email (its page was seen lately). */
export const holdIsLive = (checkout: { lastSeenAt: Date }) => checkout.lastSeenAt > holdLiveSince();

/**
 * Serialises the checkout starts of one address for the rest of the transaction, so parallel starts cannot
 * both see room for one more hold. Taken before any checkout row is locked.
 */
export async function lockAddress(tx: Db, ip: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK}, hashtext(${ip}))`);
}

/**
 * 429 when the address already has HOLDS_PER_ADDRESS live holds besides `exceptId` (the checkout it is
 * continuing). Its retry time is when the quietest of them lapses, if its page stays closed.
 */
export async function assertAddressHasRoom(tx: Db, ip: string, exceptId: number | null): Promise<void> {
  const live = await tx
    .select({ lastSeenAt: pendingCheckouts.lastSeenAt })
    .from(pendingCheckouts)
    .where(
      and(
        eq(pendingCheckouts.kind, "register"),
        eq(pendingCheckouts.status, "pending"),
        eq(pendingCheckouts.clientIp, ip),
        gt(pendingCheckouts.lastSeenAt, holdLiveSince()),
        exceptId ? ne(pendingCheckouts.id, exceptId) : undefined,
      ),
    )
    .orderBy(asc(pendingCheckouts.lastSeenAt))
    .limit(HOLDS_PER_ADDRESS);
  const quietest = live[0];
  if (live.length < HOLDS_PER_ADDRESS || !quietest) return;
  throw tooMany(TOO_MANY_HOLDS, quietest.lastSeenAt.getTime() + CHECKOUT_HOLD_IDLE_MS - Date.now());
}

/** A sign of life from the checkout's page: its hold lasts another CHECKOUT_HOLD_IDLE_MS. */
export async function touchHold(db: Db, checkoutId: number): Promise<void> {
  await db
    .update(pendingCheckouts)
    .set({ lastSeenAt: new Date() })
    .where(and(eq(pendingCheckouts.id, checkoutId), eq(pendingCheckouts.status, "pending")));
}
