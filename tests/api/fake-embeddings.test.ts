// Proves the stand-ins' embeddings speak the real wire formats: the real AI SDK providers' embedding models run
// against them by base URL, and the vectors carry meaning (a passage sharing a question's words ranks first).
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, type EmbeddingModel, embed, embedMany } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosine, fakeEmbedding } from "../fakes/fake-embeddings.js";
import { DEFAULT_API_KEY, type FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
});
afterAll(async () => {
  await fake?.close();
});

interface Kind {
  name: string;
  model: (apiKey: string, modelId?: string) => EmbeddingModel;
  dimensions: number;
}

const kinds: Kind[] = [
  {
    name: "OpenAI",
    model: (apiKey, id = "text-embedding-3-small") => createOpenAI({ baseURL: fake.url, apiKey }).embedding(id),
    dimensions: 1536,
  },
  {
    name: "Mistral",
    model: (apiKey, id = "mistral-embed") => createMistral({ baseURL: fake.url, apiKey }).embedding(id),
    dimensions: 1024,
  },
  {
    name: "OpenAI-compatible (Ollama)",
    model: (apiKey, id = "nomic-embed-text") => createOpenAICompatible({ name: "ollama", baseURL: fake.url, apiKey }).embeddingModel(id),
    dimensions: 768,
  },
];

const passages = [
  "Photosynthesis turns light, water and carbon dioxide into glucose in the chloroplasts of a leaf.",
  "The French Revolution began in 1789 with the storming of the Bastille in Paris.",
  "Mitochondria release energy from glucose through cellular respiration.",
  "A binary search halves the sorted array at every step until the key is found.",
];

describe.each(kinds)("$name embeddings against the stand-in", (kind) => {
  it("answers one vector per input, in order, of the model's size and length 1, with usage", async () => {
    const before = fake.requests.length;
    const { embeddings, usage } = await embedMany({ model: kind.model(DEFAULT_API_KEY), values: passages, maxRetries: 0 });
    expect(embeddings).toHaveLength(passages.length);
    for (const [i, vector] of embeddings.entries()) {
      expect(vector).toHaveLength(kind.dimensions);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
      expect(vector).toEqual(fakeEmbedding(passages[i] ?? "", kind.dimensions));
    }
    expect(usage.tokens).toBeGreaterThan(passages.length);
    const sent = fake.requests.slice(before).find((r) => r.path.endsWith("/embeddings"));
    expect(sent?.method).toBe("POST");
    expect(sent?.body).toMatchObject({ input: passages });
  });

  it("ranks the passage that shares the question's words first", async () => {
    const model = kind.model(DEFAULT_API_KEY);
    const { embeddings } = await embedMany({ model, values: passages, maxRetries: 0 });
    const ask = async (question: string) => {
      const { embedding } = await embed({ model, value: question, maxRetries: 0 });
      const scores = embeddings.map((vector) => cosine(vector, embedding));
      return scores.indexOf(Math.max(...scores));
    };
    expect(await ask("Where in the leaf does photosynthesis make glucose?")).toBe(0);
    expect(await ask("When was the Bastille stormed in Paris?")).toBe(1);
    expect(await ask("How does a binary search find a key in a sorted array?")).toBe(3);
  });

  it("refuses a wrong key with 401, an unknown model with 404 and a directive's status, as the API does", async () => {
    const failure = async (apiKey: string, value: string, modelId?: string) => {
      const error = await embed({ model: kind.model(apiKey, modelId), value, maxRetries: 0 }).catch((e: unknown) => e);
      expect(APICallError.isInstance(error)).toBe(true);
      return (error as APICallError).statusCode;
    };
    expect(await failure("sk-wrong-key-000000000", "hello")).toBe(401);
    expect(await failure(DEFAULT_API_KEY, "hello", "missing-model")).toBe(404);
    expect(await failure(DEFAULT_API_KEY, "hello #error=429")).toBe(429);
    expect(await failure(DEFAULT_API_KEY, "")).toBe(400);
  });
});

describe("the stand-in's vectors", () => {
  it("are the same for the same text and far apart for texts with no word in common", () => {
    expect(fakeEmbedding("Glucose in the leaf", 256)).toEqual(fakeEmbedding("glucose, in the LEAF!", 256));
    const near = cosine(fakeEmbedding("glucose in the leaf", 768), fakeEmbedding("the leaf makes glucose", 768));
    const far = cosine(fakeEmbedding("glucose in the leaf", 768), fakeEmbedding("storming of a prison", 768));
    expect(near).toBeGreaterThan(0.5);
    expect(Math.abs(far)).toBeLessThan(0.2);
  });

  it("honour the dimensions a request asks for", async () => {
    const model = createOpenAI({ baseURL: fake.url, apiKey: DEFAULT_API_KEY }).embedding("text-embedding-3-small");
    const { embedding } = await embed({ model, value: "short vector", providerOptions: { openai: { dimensions: 256 } }, maxRetries: 0 });
    expect(embedding).toHaveLength(256);
  });

  it("take Mistral's output_dimension; refuse a size where the real model does (400), or ignore it where a server does", async () => {
    const before = fake.requests.length;
    const codestral = createMistral({ baseURL: fake.url, apiKey: DEFAULT_API_KEY }).embedding("codestral-embed");
    expect((await embed({ model: codestral, value: "short vector", dimensions: 256, maxRetries: 0 })).embedding).toHaveLength(256);
    expect((fake.requests[before]?.body as { output_dimension?: number } | undefined)?.output_dimension).toBe(256);
    const refusing = [
      createMistral({ baseURL: fake.url, apiKey: DEFAULT_API_KEY }).embedding("mistral-embed"),
      createOpenAI({ baseURL: fake.url, apiKey: DEFAULT_API_KEY }).embedding("text-embedding-ada-002"),
    ];
    for (const model of refusing) {
      const error = await embed({ model, value: "x", dimensions: 256, maxRetries: 0 }).catch((e: unknown) => e);
      expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
      expect((error as Error).message).toMatch(/dimension/);
      expect((await embed({ model, value: "x", maxRetries: 0 })).embedding.length).toBeGreaterThan(256);
    }
    const ollama = createOpenAICompatible({ name: "ollama", baseURL: fake.url, apiKey: DEFAULT_API_KEY }).embeddingModel("all-minilm");
    expect((await embed({ model: ollama, value: "x", dimensions: 256, maxRetries: 0 })).embedding).toHaveLength(384);
  });
});
