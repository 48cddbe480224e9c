// Tool calls in the provider stand-ins. A request that offers tools, whose last user message says
// `#tool=NAME` (optionally followed at once by a JSON object of arguments: `#tool=search{"query":"leaf"}`), is
// answered with a call of that tool (several directives: several calls, in order), streamed as each wire format
// streams them (the arguments in pieces) and finished with the format's tool-call stop reason. When the
// conversation ends with tool results, the answer is text that repeats them (`Tool results: <result> | <result>`),
// so a test sees what reached the model. A directive naming a tool the request does not offer is ignored.
import type { ServerResponse } from "node:http";
import { countWords } from "./fake-behaviour.js";
import { sleep } from "./fake-server.js";

export interface FakeToolCall {
  id: string;
  name: string;
  /** The arguments as the model writes them: a JSON object, as text. */
  arguments: string;
}

export interface ToolCallPlan {
  kind: "tool-calls";
  calls: FakeToolCall[];
  delayMs: number;
  firstDelayMs: number;
  inputTokens: number;
  outputTokens: number;
}

let nextCall = 1;

/** The JSON object that starts at `from` (balanced braces, strings respected), or null. */
function objectAt(text: string, from: number): string | null {
  if (text[from] !== "{") return null;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(from, i + 1);
  }
  return null;
}

/** The calls a user message's directives ask for, among the tools offered (none: null). */
export function toolCallsAsked(text: string, offered: string[], idPrefix: string): FakeToolCall[] | null {
  if (offered.length === 0) return null;
  const calls: FakeToolCall[] = [];
  for (const match of text.matchAll(/#tool=([A-Za-z0-9_.-]+)/g)) {
    const name = match[1] ?? "";
    if (!offered.includes(name)) continue;
    const json = objectAt(text, (match.index ?? 0) + match[0].length);
    let args = "{}";
    if (json) {
      try {
        args = JSON.stringify(JSON.parse(json));
      } catch {
        args = json; // a broken argument object is sent as written: the model's mistake, for the app to handle
      }
    }
    calls.push({ id: `${idPrefix}${nextCall++}`, name, arguments: args });
  }
  return calls.length > 0 ? calls : null;
}

/** The text answer to a conversation that ends with tool results. */
export function toolResultsText(results: string[]): string {
  return `Tool results: ${results.join(" | ")}`;
}

export function toolCallPlan(calls: FakeToolCall[], timing: { delayMs: number; firstDelayMs: number; inputTokens: number }): ToolCallPlan {
  const outputTokens = calls.reduce((sum, call) => sum + 1 + countWords(call.arguments.replace(/[{}":,]/g, " ")), 0);
  return { kind: "tool-calls", calls, ...timing, outputTokens };
}

/** Splits a call's arguments into pieces of at most 8 characters, as models stream them. */
export function argumentPieces(args: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 8) pieces.push(args.slice(i, i + 8));
  return pieces.length > 0 ? pieces : [""];
}

export interface ToolDelivery {
  sendWhole(plan: ToolCallPlan): void;
  start(plan: ToolCallPlan): void;
  /** One piece of call `index`'s arguments; `first` for its first piece (which names the tool). */
  piece(index: number, call: FakeToolCall, piece: string, first: boolean): void;
  finish(plan: ToolCallPlan): void;
  firstChunkWritten?(): void;
}

/** Plays a tool-call plan on the response, with the text replies' timing. */
export async function deliverToolCalls(res: ServerResponse, plan: ToolCallPlan, stream: boolean, out: ToolDelivery): Promise<void> {
  if (!stream) {
    await sleep(plan.firstDelayMs);
    if (!res.destroyed) out.sendWhole(plan);
    return;
  }
  out.start(plan);
  let written = 0;
  for (const [index, call] of plan.calls.entries()) {
    for (const [n, piece] of argumentPieces(call.arguments).entries()) {
      await sleep(written === 0 ? plan.firstDelayMs : plan.delayMs);
      if (res.destroyed) return;
      out.piece(index, call, piece, n === 0);
      if (written++ === 0) out.firstChunkWritten?.();
    }
  }
  out.finish(plan);
  res.end();
}
