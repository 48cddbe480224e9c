// How every fake provider decides what to answer. The decision lives here, once, so the OpenAI-style and
// Anthropic fakes behave identically and differ only in wire format. Directives are read from the LAST
// user message, so a test (or a person in the browser) steers the fake just by what it types.
import type { ServerResponse } from "node:http";
import { sleep, untilClientGone } from "./fake-server.js";
import { deliverToolCalls, type ToolCallPlan, type ToolDelivery, toolCallPlan, toolCallsAsked, toolResultsText } from "./fake-tools.js";

export const SLOW_CHUNK_DELAY_MS = 200;
/** #cut sends this many chunks before dropping the socket. */
export const CUT_AFTER_CHUNKS = 3;
export const MISSING_MODEL = "missing-model";

export interface ChatTurn {
  role: string;
  content: unknown;
}

export type ErrorReason = "missing-key" | "wrong-key" | "missing-model" | "unknown-route" | "directive";

export interface TextPlan {
  kind: "complete" | "cut" | "hang";
  text: string;
  chunks: string[];
  delayMs: number;
  /** Pause before the first chunk. */
  firstDelayMs: number;
  inputTokens: number;
  outputTokens: number;
}

export type ReplyPlan = TextPlan | ToolCallPlan | { kind: "error"; status: number; reason: ErrorReason } | { kind: "hang-start" };

export interface PlanInput {
  model: unknown;
  system?: unknown;
  messages: ChatTurn[];
  keyProblem: "missing-key" | "wrong-key" | null;
  chunkDelayMs: number;
  firstChunkDelayMs?: number;
  /** The request asked for JSON (OpenAI `response_format`: `json_schema`, or `json_object`, JSON mode). */
  json?: boolean;
  /**
   * The structured output's name (OpenAI `response_format.json_schema.name`): picks what is answered (`structuredAnswer`).
   * Unset (JSON mode, no schema sent): the answer is the shape the prompt names, as a real model writes (`promptedAnswer`).
   */
  jsonName?: string;
  /** Names of the tools the request offers (fake-tools.ts). */
  tools?: string[];
  /** The tool results the conversation ends with, as text (none: it does not end with results). */
  toolResults?: string[] | null;
  /** How this wire format's tool call ids begin (`call_`, `toolu_`). */
  toolIdPrefix?: string;
}

/** Order matters: auth first, then the model, like the real APIs; then directives, most disruptive first. */
export function planReply(input: PlanInput): ReplyPlan {
  const { model, system, messages, keyProblem, chunkDelayMs, firstChunkDelayMs = 0, json } = input;
  if (keyProblem) return { kind: "error", status: 401, reason: keyProblem };
  if (model === MISSING_MODEL) return { kind: "error", status: 404, reason: "missing-model" };
  const allText = [textOf(system), ...messages.map((turn) => textOf(turn.content))].join(" ");

  // After a tool ran, the model answers with what it got, whatever the first message asked.
  const last = input.toolResults ? toolResultsText(input.toolResults) : lastUserText(messages);
  const errorStatus = /#error=(\d{3})/.exec(last)?.[1];
  if (errorStatus) return { kind: "error", status: Number(errorStatus), reason: "directive" };
  if (last.includes("#hang-start")) return { kind: "hang-start" };
  const calls = input.toolResults ? null : toolCallsAsked(last, input.tools ?? [], input.toolIdPrefix ?? "call_");
  if (calls) return toolCallPlan(calls, { delayMs: chunkDelayMs, firstDelayMs: firstChunkDelayMs, inputTokens: countWords(allText) });

  let kind: TextPlan["kind"] = "complete";
  let delayMs = chunkDelayMs;
  let text = input.toolResults ? last : `Echo: ${last}`;
  if (last.includes("#cut")) {
    kind = "cut";
    text = `Cut reply: ${numberedWords(16)}`; // long enough that "a few chunks" is a strict prefix
  } else if (/#hang(?!-)/.test(last)) {
    kind = "hang";
  } else if (last.includes("#slow")) {
    delayMs = SLOW_CHUNK_DELAY_MS;
    text = `Slow reply: ${numberedWords(38)}`; // 40 words with the prefix
  } else if (last.includes("#long")) {
    text = LONG_REPLY;
  } else if (last.includes("#markdown-xss")) {
    text = XSS_REPLY;
  }
  // Structured output: a valid answer for the schema asked (structuredAnswer), or (#bad-json) text that is not JSON at all.
  // Without a schema (JSON mode) the model writes what the prompt describes (promptedAnswer); `#fenced-json` wraps it in a
  // Markdown fence after a sentence, as models without a JSON mode often do.
  if (json) {
    const answer = JSON.stringify(input.jsonName ? structuredAnswer(input.jsonName, last) : promptedAnswer(allText, last));
    if (last.includes("#bad-json")) text = "Sorry, here is no JSON at all.";
    else if (last.includes("#fenced-json")) text = `Here is the JSON you asked for:\n\n\`\`\`json\n${answer}\n\`\`\``;
    else text = answer;
  }

  return {
    kind,
    text,
    chunks: chunkWords(text, 3),
    delayMs,
    firstDelayMs: firstChunkDelayMs,
    inputTokens: countWords(allText),
    outputTokens: countWords(text),
  };
}

/** Plain text of a message: OpenAI/Mistral/Anthropic all send either a string or an array of `{type:"text", text}` parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join(" ");
}

export function lastUserText(messages: ChatTurn[]): string {
  const last = messages.findLast((turn) => turn.role === "user");
  return last ? textOf(last.content) : "";
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Splits into chunks of `size` words, each keeping its trailing whitespace, so joining the chunks gives the text back exactly. */
export function chunkWords(text: string, size: number): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(""));
  return chunks;
}

function numberedWords(count: number): string {
  return Array.from({ length: count }, (_, i) => `word${i + 1}`).join(" ");
}

export interface Delivery {
  sendError(status: number, reason: ErrorReason): void;
  sendWhole(plan: TextPlan): void;
  /** Stream writer: headers + preamble, one text piece, then the closing events (usage, stop, [DONE]). */
  start(plan: TextPlan): void;
  delta(piece: string, index: number): void;
  finish(plan: TextPlan): void;
  /** Called right after the first piece is written (the fakes' `onFirstChunk` option). */
  firstChunkWritten?(): void;
  /** How this wire format writes tool calls. */
  tools: ToolDelivery;
}

/** Plays a plan on the response; the same timing rules apply to every provider format. */
export async function deliver(res: ServerResponse, plan: ReplyPlan, stream: boolean, out: Delivery): Promise<void> {
  if (plan.kind === "error") return out.sendError(plan.status, plan.reason);
  if (plan.kind === "hang-start") return untilClientGone(res);
  if (plan.kind === "tool-calls") return deliverToolCalls(res, plan, stream, { ...out.tools, firstChunkWritten: out.firstChunkWritten });
  if (!stream) {
    if (plan.kind === "hang") return untilClientGone(res);
    if (plan.kind === "cut") return void res.destroy();
    // A whole answer takes as long as its streamed form would (so #slow also slows generateText).
    await sleep(plan.delayMs * Math.max(0, plan.chunks.length - 1));
    if (res.destroyed) return;
    return out.sendWhole(plan);
  }
  out.start(plan);
  for (const [index, piece] of plan.chunks.entries()) {
    if (index > 0) await sleep(plan.delayMs);
    else if (plan.firstDelayMs > 0) await sleep(plan.firstDelayMs);
    if (res.destroyed) return; // the client gave up (abort, timeout): stop writing into a dead socket
    out.delta(piece, index);
    if (index === 0) out.firstChunkWritten?.();
    if (plan.kind === "hang") return untilClientGone(res);
    if (plan.kind === "cut" && index === CUT_AFTER_CHUNKS - 1) {
      // Wait first: destroy() discards unflushed writes. Destroying (not ending) leaves the chunked body unterminated,
      // so the client sees a network error, as when a provider's connection drops mid-answer.
      await sleep(plan.delayMs);
      return void res.destroy();
    }
  }
  out.finish(plan);
  res.end();
}

/**
 * What the stand-in answers to a structured-output request, by the name the caller gave its schema: quiz questions
 * (`quiz_questions`), a grade of a short answer (`answer_grade`: wrong when the last message says `#wrong`, right
 * otherwise), else a course outline.
 */
export function structuredAnswer(name: string | undefined, last: string): unknown {
  if (name === "quiz_questions") return FAKE_QUESTIONS;
  if (name === "answer_grade") {
    const correct = !last.includes("#wrong");
    return { correct, reasoning: correct ? "Fake grader: the answer meets the rubric." : "Fake grader: the answer misses the rubric." };
  }
  return FAKE_OUTLINE;
}

/**
 * What a model in JSON mode (no schema sent) writes: the shape its prompt names, found by the field names quoted there
 * as a JSON Schema or an example names them (`"questions"` and `"explanation"`: quiz questions; `"correct"` and
 * `"reasoning"`: a grade; `"modules"` and `"lessons"`: an outline); a prompt that names no shape gets a JSON object of
 * its own choosing, which fits none of them.
 */
export function promptedAnswer(prompt: string, last: string): unknown {
  const names = (...fields: string[]) => fields.every((field) => prompt.includes(`"${field}"`));
  if (names("questions", "explanation")) return structuredAnswer("quiz_questions", last);
  if (names("correct", "reasoning")) return structuredAnswer("answer_grade", last);
  if (names("modules", "lessons")) return FAKE_OUTLINE;
  return { answer: `Echo: ${last}` };
}

/** Drafted quiz questions: one valid question of each kind, and one a server must drop (its key is not an option). */
export const FAKE_QUESTIONS = {
  questions: [
    {
      kind: "single",
      prompt: "Which colour is the sky?",
      options: ["Green", "Blue"],
      correct: [1],
      accepted: [],
      explanation: "It is blue.",
    },
    {
      kind: "multiple",
      prompt: "Which are fruits?",
      options: ["Apple", "Carrot", "Pear"],
      correct: [0, 2],
      accepted: [],
      explanation: "Apples and pears.",
    },
    { kind: "truefalse", prompt: "Water is wet.", options: ["True", "False"], correct: [0], accepted: [], explanation: "It is." },
    { kind: "short", prompt: "Capital of France?", options: [], correct: [], accepted: ["Paris"], explanation: "Paris." },
    { kind: "single", prompt: "Broken draft", options: ["A", "B"], correct: [5], accepted: [], explanation: "" },
  ],
};

/** What the stand-in answers to a structured-output request (2 modules x 2 lessons); lesson types as the contract names them, so a test can send it back typed. */
export const FAKE_OUTLINE = {
  modules: [
    {
      title: "Getting Started",
      description: "Set up and first steps",
      lessons: [
        { title: "Why it matters", type: "reading" as const, summary: "The problem this course solves" },
        { title: "Your first try", type: "exercise" as const, summary: "A small hands-on start" },
      ],
    },
    {
      title: "Going Further",
      description: "Deeper practice",
      lessons: [
        { title: "Common mistakes", type: "reading" as const, summary: "What trips people up" },
        { title: "Check yourself", type: "quiz" as const, summary: "Five questions" },
      ],
    },
  ],
};

const XSS_REPLY = [
  "Here are some links to check the renderer:",
  "",
  "- a script link [click](javascript:alert(1))",
  "- a script image ![img](javascript:alert(2))",
  "- raw html <script>alert(3)</script>",
  "- a normal link [ok](https://example.com)",
].join("\n");

const LONG_REPLY = buildLongReply();

function buildLongReply(): string {
  const parts = [
    "## A long answer",
    "This reply is long on purpose, to exercise scrolling, wrapping and markdown rendering in the chat view.",
    ["- first, a point about streaming", "- second, a point about layout", "- third, a point about code blocks"].join("\n"),
    ["```ts", "export function add(a: number, b: number): number {", "  return a + b;", "}", "```"].join("\n"),
  ];
  const sentence = "The quick brown fox jumps over the lazy dog while the fake provider keeps talking about nothing in particular.";
  for (let n = 1; countWords(parts.join(" ")) < 400; n++) parts.push(`Paragraph ${n}. ${sentence} ${sentence} ${sentence}`);
  return parts.join("\n\n");
}
