import { type SQL, sql } from "drizzle-orm";
import type { TextMessage, ToolStep } from "../../ai/generate.js";
import { messages, type StoredToolCall } from "../../db/schema/index.js";
import { modelToolName } from "../tools/tools-service.js";

// How a reply's tool calls are kept and given back to a model (issue 34, decision 046): the row keeps the reply's
// whole text and its calls, each with the step that asked for it and where the text stood then; the model gets the
// text of each step, its calls and their results, then the text after the last step.

export const DENIED_RESULT = "The user denied this call.";
export const UNANSWERED_RESULT = "The user did not answer this call.";
export const STOPPED_RESULT = "The reply was stopped before this tool answered.";

/** A stored call's result as the model gets it; a call never answered (paused, stopped) gets a result all the same. */
function outputOf(call: StoredToolCall): { output: string; isError: boolean } {
  if (call.status === "done") return { output: call.result ?? "", isError: false };
  if (call.status === "denied") return { output: call.result ?? DENIED_RESULT, isError: false };
  if (call.status === "error") return { output: call.result ?? "The tool failed.", isError: true };
  return { output: UNANSWERED_RESULT, isError: true };
}

/** A reply's turn for the model: the text before each step's calls, the calls and their results, then the rest. */
export function replyTurn(content: string, calls: readonly StoredToolCall[]): TextMessage {
  if (calls.length === 0) return { role: "assistant", content };
  const byStep = new Map<number, StoredToolCall[]>();
  for (const call of calls) byStep.set(call.step, [...(byStep.get(call.step) ?? []), call]);
  const steps: ToolStep[] = [];
  let from = 0;
  for (const step of [...byStep.keys()].sort((a, b) => a - b)) {
    const stepCalls = byStep.get(step) ?? [];
    const at = Math.min(Math.max(from, stepCalls[0]?.textOffset ?? from), content.length);
    steps.push({
      text: content.slice(from, at),
      calls: stepCalls.map((call) => ({ id: call.id, name: modelToolName(call.tool), input: call.args ?? {}, ...outputOf(call) })),
    });
    from = at;
  }
  return { role: "assistant", content: content.slice(from), steps };
}

/** The number of the last step that called tools (0: none). */
export const lastStep = (calls: readonly StoredToolCall[]) => calls.reduce((most, call) => Math.max(most, call.step), 0);

/**
 * The row's `tool_calls` with each call of status `from` turned into `to` with `result`, in SQL (the others as they
 * are): how a reply ended by something other than its run (a Stop elsewhere, the sweep, a paused reply ended) leaves no
 * card running or waiting.
 */
export function callsEnded(from: StoredToolCall["status"], to: StoredToolCall["status"], result: string): SQL {
  return sql`coalesce((select jsonb_agg(case when c->>'status' = ${from}::text
    then c || jsonb_build_object('status', ${to}::text, 'result', ${result}::text) else c end order by n)
    from jsonb_array_elements(${messages.toolCalls}) with ordinality as t(c, n)), '[]'::jsonb)`;
}
