// Embeddings for the provider stand-ins: `POST /v1/embeddings` as OpenAI, Mistral and OpenAI-compatible servers
// (Ollama, vLLM) answer it. The vectors are deterministic and carry meaning: each word of a text (lower-cased,
// letters and digits) is hashed into one dimension with a sign, weighted by 1 + ln(count), and the vector is
// normalised to length 1. Texts that share words are near each other (cosine), texts with no word in common are
// nearly orthogonal, so a retrieval test can assert that the right passage wins.
import { countWords } from "./fake-behaviour.js";

/** Dimensions each known model answers with (the real models' sizes), others {@link DEFAULT_DIMENSIONS}. */
export const EMBEDDING_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
  "mistral-embed": 1024,
  "codestral-embed": 1536,
  "nomic-embed-text": 768,
  "all-minilm": 384,
};

/**
 * The size a request asks for is OpenAI's `dimensions` or Mistral's `output_dimension`. These models refuse it with
 * their provider's words (a 400), as the real ones do: OpenAI's `text-embedding-ada-002`, Mistral's `mistral-embed`.
 */
export const REFUSES_DIMENSIONS: Record<string, string> = {
  "text-embedding-ada-002": "This model does not support specifying dimensions.",
  "mistral-embed": "Model mistral-embed does not support output_dimension.",
};
/** This one ignores the size asked for and answers its own, as a server that does not know the field does (Ollama's older /v1). */
export const IGNORES_DIMENSIONS = ["all-minilm"];
export const DEFAULT_DIMENSIONS = 768;
/** OpenAI refuses more inputs than this in one request. */
export const MAX_EMBEDDING_INPUTS = 2048;

/** The words a text is made of, as the vectors see them. */
export function embeddingWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** FNV-1a, 32 bits: the same word lands in the same dimension in every process. */
function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The stand-in's vector for one text (length 1; a text without words gets a vector of zeros, as no real one does). */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const counts = new Map<string, number>();
  for (const word of embeddingWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const vector = new Array<number>(dimensions).fill(0);
  for (const [word, count] of counts) {
    const h = hash(word);
    const sign = h & 0x80000000 ? -1 : 1;
    const at = h % dimensions;
    vector[at] = (vector[at] ?? 0) + sign * (1 + Math.log(count));
  }
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((x) => x / length);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

export interface EmbeddingRequest {
  model?: unknown;
  input?: unknown;
  dimensions?: unknown;
  /** Mistral's name for `dimensions`. */
  output_dimension?: unknown;
  encoding_format?: unknown;
}

export type EmbeddingAnswer =
  | { ok: true; body: object }
  | { ok: false; status: number; reason: "missing-model" | "directive" | "bad-input"; message?: string };

/**
 * What the stand-in answers to one embeddings request (the key was checked before). Directives, read from any
 * input: `#error=NNN` answers HTTP NNN. Model `missing-model` is a 404, as for chat. A size asked for
 * (`dimensions`, `output_dimension`) is honoured but by the models above that refuse or ignore it.
 */
export function answerEmbeddings(request: EmbeddingRequest): EmbeddingAnswer {
  if (request.model === "missing-model") return { ok: false, status: 404, reason: "missing-model" };
  const inputs = typeof request.input === "string" ? [request.input] : request.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((x) => typeof x !== "string")) {
    return { ok: false, status: 400, reason: "bad-input", message: "'$.input' is invalid. Please check the API reference." };
  }
  const texts = inputs as string[];
  if (texts.length > MAX_EMBEDDING_INPUTS) {
    return { ok: false, status: 400, reason: "bad-input", message: `'$.input' must have at most ${MAX_EMBEDDING_INPUTS} items.` };
  }
  if (texts.some((text) => text.length === 0)) {
    return { ok: false, status: 400, reason: "bad-input", message: "'$.input' is invalid: an input cannot be an empty string." };
  }
  const directive = texts.map((text) => /#error=(\d{3})/.exec(text)?.[1]).find(Boolean);
  if (directive) return { ok: false, status: Number(directive), reason: "directive" };

  const model = String(request.model);
  const named = request.dimensions ?? request.output_dimension;
  const asked = typeof named === "number" && named > 0 && !IGNORES_DIMENSIONS.includes(model) ? named : undefined;
  const refusal = REFUSES_DIMENSIONS[model];
  if (asked && refusal) return { ok: false, status: 400, reason: "bad-input", message: refusal };
  const dimensions = asked ?? EMBEDDING_DIMENSIONS[model] ?? DEFAULT_DIMENSIONS;
  const base64 = request.encoding_format === "base64";
  const tokens = texts.reduce((sum, text) => sum + Math.max(1, countWords(text)), 0);
  return {
    ok: true,
    body: {
      object: "list",
      data: texts.map((text, index) => {
        const vector = fakeEmbedding(text, dimensions);
        return { object: "embedding", index, embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector };
      }),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}
