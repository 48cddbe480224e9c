import { and, desc, eq } from "drizzle-orm";
import type { UnfinishedPayment } from "../../../shared/contracts/payments.js";
import { fromMinorUnits } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";

/** Paid checkouts that could not finish, newest first: shown on the Payment Settings page until resolved. */
export async function listUnfinishedPayments(db: Db): Promise<UnfinishedPayment[]> {
  const rows = await db
    .select()
    .from(pendingCheckouts)
    .where(eq(pendingCheckouts.status, "attention"))
    .orderBy(desc(pendingCheckouts.updatedAt))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    username: row.username,
    email: row.email,
    paymentIntentId: row.paymentIntentId,
    amount: fromMinorUnits(row.amountMinor ?? 0, row.currency ?? "usd"),
    currency: (row.currency ?? "usd").toUpperCase(),
    problem: row.problem ?? "Paid, but the checkout could not finish.",
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** An admin settled it (refunded, or created the account by hand): it leaves the list. */
export async function resolveUnfinishedPayment(db: Db, id: number): Promise<void> {
  const [row] = await db
    .update(pendingCheckouts)
    .set({ status: "resolved", updatedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, id), eq(pendingCheckouts.status, "attention")))
    .returning({ id: pendingCheckouts.id });
  if (!row) throw new AppError("NOT_FOUND", "This payment is not waiting for an admin.");
}
