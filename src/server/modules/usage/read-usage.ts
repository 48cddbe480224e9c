import type { StorageUsage } from "../../../shared/contracts/knowledge.js";
import type { AllowanceState, Usage } from "../../../shared/contracts/usage.js";
import { numbersOfSlot, readAiSlot, refusalOf, resetTimes, type SlotRow, type UsageNumbers } from "../../ai/usage-limits.js";
import type { Db } from "../../db/client.js";
import type { Who } from "../../lib/who.js";
import { storageUsage } from "../knowledge/storage-limits.js";

function state(used: number, limit: number | null, resetsAt: Date): AllowanceState {
  return { used, limit, left: limit === null ? null : Math.max(0, limit - used), resetsAt: resetsAt.toISOString() };
}

/**
 * GET /api/usage: tokens this month and messages today (UTC), the plan's allowances, what is left and when
 * each resets, and the refusal a new message would get now once an allowance is spent. Tokens held by calls under
 * way (decision 028) are neither used nor a block here: they come back or count when those calls end, and the meter
 * is read again then. An admin sees their counts with no limits.
 */
export async function readUsage(options: { db: Db; who: Who }): Promise<Usage> {
  const { who } = options;
  return (
    (await usageOfUser(options.db, who.id)) ??
    usageOf(
      { role: who.role, planType: who.planType, tokens: 0, messagesToday: 0, monthlyTokens: null, messagesPerDay: null },
      null,
      await storageUsage(options.db, who.id),
    )
  );
}

/** The same for a user known by id (a reply's `done` event carries it), or null when there is no such user. */
export async function usageOfUser(db: Db, userId: number): Promise<Usage | null> {
  // No limit on replies running here: the meter shows the allowances (the database's rule, migration 0016).
  const [slot, storage] = await Promise.all([readAiSlot(db, userId, Number.POSITIVE_INFINITY), storageUsage(db, userId)]);
  const numbers = numbersOfSlot(slot);
  return numbers ? usageOf(numbers, slot, storage) : null;
}

type SlotNumbers = Pick<UsageNumbers, "role" | "planType" | "tokens" | "messagesToday" | "monthlyTokens" | "messagesPerDay">;

function usageOf(numbers: SlotNumbers, slot: SlotRow | undefined | null, storage: StorageUsage): Usage {
  const now = new Date();
  const admin = numbers.role === "admin";
  const monthlyTokens = admin ? null : numbers.monthlyTokens;
  const messagesPerDay = admin ? null : numbers.messagesPerDay;
  const resets = resetTimes(now);
  return {
    planType: numbers.planType,
    unlimited: monthlyTokens === null && messagesPerDay === null,
    tokens: state(numbers.tokens, monthlyTokens, resets.month),
    messages: state(numbers.messagesToday, messagesPerDay, resets.day),
    blocked: !slot || slot.verdict === "held" ? null : (refusalOf(slot, Number.POSITIVE_INFINITY, now)?.message ?? null),
    storage,
  };
}
