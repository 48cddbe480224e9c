import { describe, expect, it } from "vitest";
import { describeModel, modelName } from "./model-catalog.js";

describe("describeModel", () => {
  it("names known models with a one-line description", () => {
    expect(describeModel("gpt-4o-mini")).toEqual({ name: "GPT-4o mini", description: "Quick and low-cost for everyday chat" });
    expect(modelName("deepseek-reasoner")).toBe("DeepSeek Reasoner");
    expect(modelName("o3-mini")).toBe("o3-mini");
    expect(describeModel("o3-mini").description).toContain("reasoning");
  });

  it("finds the base of a dated or -latest id, the longest first", () => {
    expect(modelName("gpt-4o-2024-08-06")).toBe("GPT-4o");
    expect(modelName("claude-3-5-sonnet-20241022")).toBe("Claude 3.5 Sonnet");
    expect(modelName("claude-sonnet-4-5-20250929")).toBe("Claude Sonnet 4.5");
    expect(modelName("claude-sonnet-4-20250514")).toBe("Claude Sonnet 4");
    expect(modelName("mistral-large-latest")).toBe("Mistral Large");
    expect(modelName("mistral-small-2501")).toBe("Mistral Small");
    expect(modelName("MISTRAL-SMALL-LATEST")).toBe("Mistral Small");
  });

  it("does not take another model's name by prefix", () => {
    // gpt-4o-mini is its own model, not a version of gpt-4o; o3-deep is unknown, not o3.
    expect(modelName("gpt-4o-mini-2024-07-18")).toBe("GPT-4o mini");
    expect(describeModel("o3-deep-research")).toEqual({ name: "o3-deep-research", description: null });
  });

  it("reads a gateway's vendor/model id by its last part", () => {
    expect(modelName("openai/gpt-4o")).toBe("GPT-4o");
    expect(modelName("anthropic/claude-3-5-haiku-latest")).toBe("Claude 3.5 Haiku");
  });

  it("keeps an unknown model's bare id, without a description", () => {
    expect(describeModel("llama-3.1-70b-instruct")).toEqual({ name: "llama-3.1-70b-instruct", description: null });
    expect(describeModel("meta-llama/llama-3.1-8b")).toEqual({ name: "meta-llama/llama-3.1-8b", description: null });
  });
});
