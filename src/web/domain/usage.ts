import type { AllowanceState, Usage } from "../../shared/contracts/usage.js";
import { usageApi } from "../../shared/contracts/usage.js";
import { endpointQuery } from "../lib/endpoint-query.js";

/**
 * GET /api/usage: the signed-in user's tokens this month and messages today against their plan. One cache entry
 * for the chat's meter and the dashboard's plan card; a reply's end puts its new value there.
 */
export const usageQuery = endpointQuery(usageApi.mine, {});

const count = (n: number) => n.toLocaleString("en-US");

/** One allowance the plan sets, as the meters show it. */
export interface AllowanceLine {
  /** "Messages today", "Tokens this month". */
  label: string;
  /** "8 messages left today", "12,400 tokens left this month". */
  left: string;
  /** "12 of 20 used". */
  used: string;
  /** The share left, 0 to 1. */
  share: number;
}

const limited = (a: AllowanceState): a is AllowanceState & { limit: number; left: number } => a.limit !== null && a.left !== null;

/** The allowances the plan sets (none for an unlimited plan), tokens first. */
export function allowanceLines(usage: Usage): AllowanceLine[] {
  const lines: AllowanceLine[] = [];
  const { tokens, messages } = usage;
  if (limited(tokens))
    lines.push({
      label: "Tokens this month",
      left: `${count(tokens.left)} ${tokens.left === 1 ? "token" : "tokens"} left this month`,
      used: `${count(tokens.used)} of ${count(tokens.limit)} used`,
      share: Math.max(0, Math.min(1, tokens.left / tokens.limit)),
    });
  if (limited(messages))
    lines.push({
      label: "Messages today",
      left: `${count(messages.left)} ${messages.left === 1 ? "message" : "messages"} left today`,
      used: `${count(messages.used)} of ${count(messages.limit)} used`,
      share: Math.max(0, Math.min(1, messages.left / messages.limit)),
    });
  return lines;
}

/** The share left of the tighter allowance (0 to 1), for one bar. */
export function shareLeft(usage: Usage): number {
  return Math.min(1, ...allowanceLines(usage).map((line) => line.share));
}

/** Below this share left, a meter turns amber. */
export const LOW_SHARE = 0.1;

/** When the allowance that stops sending starts again, in the reader's own time ("Mon 1 Dec, 01:00"). */
export function resetText(usage: Usage): string {
  const tokensSpent = usage.tokens.left === 0;
  const at = new Date(tokensSpent ? usage.tokens.resetsAt : usage.messages.resetsAt);
  return at.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
