import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { AppError } from "../lib/app-error.js";
import { askedOnce, type IsInstanceAlive, stillOwned, sweepEach, writtenJustNow } from "../lib/liveness.js";
import { refusalOf, type SlotRow } from "./usage-limits.js";

/**
 * Every AI call holds its most before it starts and settles what it spent at its end (decision 028), as a card
 * payment holds an amount and captures the real one: the claim (`claim_ai_slot`, migration 0016) decides with the
 * allowance rule and inserts the hold in one statement; the user's holds count as spent for every claim after it;
 * `settle_ai_hold` removes the hold and adds the real tokens in one statement. Parallel calls can therefore overshoot
 * an allowance by no more than one hold (the last one allowed while there was still room).
 *
 * A reply's start claims inside `start_reply` (one statement, decision 025); every other call (one-shot, course
 * generation, and whatever calls a model later) claims through `completeText` / `completeObject` (`ai/generate.ts`),
 * which take a `Spend` and do both ends; a new streaming caller uses `claim` and `settle` here.
 */

/** The largest value of the `integer` columns the holds are written to. */
const INT_MAX = 2_147_483_647;
/** Framing tokens a chat format adds per message (role, separators) and per request (the reply's start), at most. */
const FRAMING_PER_MESSAGE = 8;
/** A typical figure: about four bytes of text per token (English prose with the GPT and Claude tokenizers). */
const BYTES_PER_TOKEN = 4;

const clamp = (n: number) => Math.max(0, Math.min(INT_MAX, Math.ceil(n)));
const bytesOf = (text: string | undefined) => (text ? Buffer.byteLength(text, "utf8") : 0);

/** What a claim holds: `tokens`, the call's most; `promptEstimate`, its prompt's likely share (see `spentTokens`). */
export interface HoldSize {
  tokens: number;
  promptEstimate: number;
}

/**
 * A request's hold: its max output tokens plus its prompt's bytes (and the framing of each message). A byte-level
 * tokenizer (GPT, Claude, Llama, Mistral's) never makes a token of less than one byte, so a prompt's bytes bound its
 * tokens from above, whatever its language; the hold is conservative on purpose, since it only bounds what parallel
 * calls may overshoot and is given back at the call's end.
 */
export function holdFor(request: { maxOutputTokens: number; prompt: readonly (string | undefined)[] }): HoldSize {
  const texts = request.prompt.filter((text) => text !== undefined);
  const framing = FRAMING_PER_MESSAGE * (texts.length + 1);
  const bytes = texts.reduce((sum, text) => sum + bytesOf(text), 0);
  return {
    tokens: clamp(request.maxOutputTokens + bytes + framing),
    promptEstimate: clamp(bytes / BYTES_PER_TOKEN + framing),
  };
}

/** The likely tokens of `bytes` bytes of text (about four bytes a token). */
export function likelyTokensOfBytes(bytes: number): number {
  return clamp(bytes / BYTES_PER_TOKEN);
}

/** Tokens (in + out) a provider reported for one call; missing counts are 0. */
export function tokensOf(usage: { inputTokens?: number | null | undefined; outputTokens?: number | null | undefined } | undefined): number {
  const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  return Number.isFinite(tokens) && tokens > 0 ? clamp(tokens) : 0;
}

/** How a call ended, for its settle (`spentTokens`). */
export interface CallEnd {
  /** The provider's figure, when it reported one. */
  usage?: Parameters<typeof tokensOf>[0];
  /** The text that came back. */
  received?: string | undefined;
  /**
   * Ended by our side or by the caller after its request went to the provider: a Stop, a shutdown, the client gone,
   * the first-chunk wait, a stall, a whole-call timeout, or its process killed while it ran (the orphan sweep). Not a
   * provider's refusal or error, and not an abort before the request left.
   */
  cut: boolean;
}

/**
 * What a call spent, for its settle: the one rule every caller settles with (decisions 028, 053).
 * - The provider's figure when it reported one.
 * - Else the likely figure of what was sent and received: the prompt's estimate plus the text that came back;
 *   nothing when no text came (a provider's refusal or error before the answer, which providers do not bill).
 * - A call that was `cut` costs at least its prompt's estimate, text or not: the provider had the prompt and bills
 *   it, and without this a person or a script could loop "send, stop before the first token" for free.
 */
export function spentTokens(promptEstimate: number, end: CallEnd): number {
  return spentOf(promptEstimate, tokensOf(end.usage), bytesOf(end.received), end.cut);
}

function spentOf(promptEstimate: number, reported: number, receivedBytes: number, cut: boolean): number {
  const spent = reported > 0 ? reported : receivedBytes > 0 ? clamp(promptEstimate + likelyTokensOfBytes(receivedBytes)) : 0;
  return cut ? Math.max(spent, clamp(promptEstimate)) : spent;
}

/**
 * Whether a call was `cut` (see `CallEnd`), read at its end: its signal aborted, and not already before its request
 * left (`abortedBeforeSent`: a call asked with a signal already aborted never reaches the provider).
 */
export function cutAfterSent(signal: AbortSignal | undefined, abortedBeforeSent: boolean): boolean {
  return !abortedBeforeSent && signal?.aborted === true;
}

/** A hold claimed and not yet settled. */
export interface AiHold {
  id: number;
  promptEstimate: number;
}

/** Who a call spends for, and the allowance it spends from: what `completeText` / `completeObject` take. */
export interface Spend {
  allowance: AiAllowance;
  userId: number;
  /** The call counts as running work of its own, up to this many at once (`AiAllowance.claimCall`, decision 051). */
  maxRunning?: number;
}

type HoldRow = {
  id: number;
  owner: string;
  prompt_estimate: number;
  fresh: boolean;
  is_reply: boolean;
  reply_status: string | null;
  received: number | null;
};

/**
 * One instance's side of the holds: claims them for this instance (`owner`), settles them, and knows which of its
 * holds are under way, so the orphan sweep (`sweep`, run by the chat engine's sweep every 5 s and at start) settles
 * only holds nobody will settle: their owner is gone, or they are this instance's and no call holds them.
 */
export class AiAllowance {
  /** Holds of calls under way here. */
  private readonly open = new Set<number>();
  /** Holds whose settle the database refused: tried again by the next sweep (and at close). */
  private readonly unsettled = new Map<number, number>();

  constructor(
    private readonly options: {
      db: Db;
      /** This instance's id (the chat engine's), which the sweep and Redis heartbeats know it by. */
      owner: string;
      log: (msg: string, err?: unknown) => void;
    },
  ) {}

  get owner(): string {
    return this.options.owner;
  }

  /**
   * The claim of one AI call, a statement of its own: the allowance rule (`ai_slot_verdict`: 429 when refused, with
   * the reset or the wait), then a hold of `size` for this instance. `maxRunning`: replies and course runs at once
   * (none by default: a one-shot call or a lesson of a run already counted); `newMessage`: it stores a user message.
   */
  async claim(userId: number, size: HoldSize, use: { maxRunning?: number; newMessage?: boolean } = {}): Promise<AiHold> {
    const max = use.maxRunning ?? Number.POSITIVE_INFINITY;
    const hold = await this.claimIn(this.options.db, userId, size, { max, newMessage: use.newMessage ?? false });
    this.open.add(hold.id);
    return hold;
  }

  /**
   * The claim of a call that has no row of its own to be counted as running: a request of the OpenAI-compatible
   * endpoint (decision 051). Its hold is marked `running_call`, which the rule (`ai_slot_verdict`, migration 0027)
   * counts with the replies and course runs running, so a script cannot run more at once than the chat may, and a
   * reply or a run started meanwhile counts it too. One transaction: the claim takes the user's row lock (parallel
   * claims on any instance queue there), and the mark commits with the hold. `newMessage`: the call counts as one of
   * the day's messages, as a chat message does (a completion does; an embedding does not).
   */
  async claimCall(userId: number, size: HoldSize, maxRunning: number, use: { newMessage: boolean }): Promise<AiHold> {
    const hold = await this.options.db.transaction(async (tx) => {
      const claimed = await this.claimIn(tx, userId, size, { max: maxRunning, newMessage: use.newMessage });
      await tx.execute(sql`update ai_holds set running_call = true where id = ${claimed.id}`);
      return claimed;
    });
    this.open.add(hold.id);
    return hold;
  }

  /** `claim_ai_slot` with at most `max` replies, runs and running calls at once (Infinity: no such limit). */
  private async claimIn(
    db: Pick<Db, "execute">,
    userId: number,
    size: HoldSize,
    limits: { max: number; newMessage: boolean },
  ): Promise<AiHold> {
    const { max } = limits;
    const result = await db.execute(
      sql`select * from claim_ai_slot(${userId}, ${Number.isFinite(max) ? max : null}::int, ${limits.newMessage},
        ${size.tokens}::int, ${size.promptEstimate}::int, ${this.owner}::text)`,
    );
    const row = result.rows[0] as SlotRow | undefined;
    const refusal = refusalOf(row, max);
    if (refusal) throw refusal;
    if (row?.hold_id === null || row?.hold_id === undefined) throw new AppError("NOT_FOUND", "This account no longer exists.");
    return { id: row.hold_id, promptEstimate: size.promptEstimate };
  }

  /** A hold claimed by a reply's start (`start_reply`), now under way here. */
  opened(holdId: number): void {
    this.open.add(holdId);
  }

  /**
   * A call's end: its hold goes and `spent` is added to the month (`settle_ai_hold`, one statement). Never throws:
   * a settle the database refuses is kept and tried again by the sweep (until then the hold still counts).
   */
  async settle(holdId: number, spent: number): Promise<void> {
    try {
      await this.options.db.execute(sql`select settle_ai_hold(${holdId}, ${clamp(spent)}::int)`);
      this.unsettled.delete(holdId);
    } catch (error) {
      this.unsettled.set(holdId, clamp(spent));
      this.options.log(`settling AI hold ${holdId} failed`, error);
    } finally {
      this.open.delete(holdId);
    }
  }

  /** The settles the database refused so far, tried again (the sweep's first step, and shutdown's last). */
  async retryUnsettled(): Promise<void> {
    for (const [holdId, spent] of [...this.unsettled]) {
      try {
        await this.options.db.execute(sql`select settle_ai_hold(${holdId}, ${spent}::int)`);
        this.unsettled.delete(holdId);
      } catch {
        // Still refused: the next sweep tries again (the first failure was logged).
      }
    }
  }

  /**
   * Holds nobody will settle, settled: their owner is gone (no heartbeat; without Redis, any owner but this
   * instance), or they are this instance's and no call holds them (older than 5 s: a reply's start registers its
   * hold as soon as it commits). A reply's hold waits until its row is no longer streaming (the reply's own sweep
   * closes it first) and is settled with what its row kept: the row tells what happened (a resumed reply may have
   * died while its tools ran, before asking the model). Any other call's hold (a `/v1` call, a one-shot call, an
   * embedding) is claimed just before its request leaves, so its process died with the call under way at the
   * provider: it is settled as `cut`, its prompt's estimate (decision 053). One hold that cannot be settled is logged
   * and skipped, never stopping the sweep.
   */
  async sweep(isInstanceAlive?: IsInstanceAlive): Promise<void> {
    const { db, log } = this.options;
    await this.retryUnsettled();
    const result = await db.execute(sql`
      select h.id, h.owner, h.prompt_estimate, ${writtenJustNow(sql`h.created_at`)} as fresh,
        h.message_id is not null as is_reply, m.status as reply_status, octet_length(m.content) as received
      from ai_holds h left join messages m on m.id = h.message_id`);
    const isAlive = askedOnce(isInstanceAlive);
    await sweepEach(
      result.rows as HoldRow[],
      async (row) => {
        if (row.reply_status === "streaming") return;
        const runsHere = this.open.has(row.id) || this.unsettled.has(row.id);
        if (await stillOwned({ owner: row.owner, runsHere, fresh: row.fresh }, this.owner, isAlive)) return;
        const spent = spentOf(Number(row.prompt_estimate), 0, Number(row.received ?? 0), !row.is_reply);
        await db.execute(sql`select settle_ai_hold(${row.id}, ${spent}::int)`);
      },
      (row, error) => log(`settling orphaned AI hold ${row.id} failed`, error),
    );
  }
}
