import { describe, expect, it } from "vitest";
import type { ChatPlatform } from "./contracts/ai-platforms.js";
import { chooseModel, parseModelValue } from "./model-choice.js";

const openai: ChatPlatform = {
  name: "OpenAI",
  slug: "openai",
  kind: "openai",
  models: ["gpt-4o-mini", "gpt-4o"],
  defaultModel: "gpt-4o-mini",
  lockedModels: [],
  lockReason: null,
  imageModels: [],
};
const router: ChatPlatform = {
  name: "OpenRouter",
  slug: "openrouter",
  kind: "openai-compatible",
  models: ["meta-llama/llama-3-8b", "mistralai/mixtral"],
  defaultModel: "mistralai/mixtral",
  lockedModels: [],
  lockReason: null,
  imageModels: [],
};

describe("chooseModel", () => {
  it("uses the default model when its platform is usable", () => {
    expect(chooseModel("openai/gpt-4o", [openai, router])).toEqual({ aiPlatform: "openai", model: "gpt-4o" });
    expect(chooseModel("openrouter/meta-llama/llama-3-8b", [openai, router])).toEqual({
      aiPlatform: "openrouter",
      model: "meta-llama/llama-3-8b",
    });
  });

  it("takes the platform's own default for a bare slug or a model it does not offer", () => {
    expect(chooseModel("openrouter", [openai, router])).toEqual({ aiPlatform: "openrouter", model: "mistralai/mixtral" });
    expect(chooseModel("openai/gpt-3", [openai])).toEqual({ aiPlatform: "openai", model: "gpt-4o-mini" });
  });

  it("falls back to the first usable platform, and to nothing when none is usable", () => {
    expect(chooseModel("mistral", [router, openai])).toEqual({ aiPlatform: "openrouter", model: "mistralai/mixtral" });
    expect(chooseModel(undefined, [openai])).toEqual({ aiPlatform: "openai", model: "gpt-4o-mini" });
    expect(chooseModel("openai", [])).toBeNull();
  });

  it("skips a platform whose models are all locked on the user's plan", () => {
    const locked: ChatPlatform = { ...openai, models: [], defaultModel: "", lockedModels: ["gpt-4o"], lockReason: "Early Access only" };
    expect(chooseModel("openai/gpt-4o", [locked, router])).toEqual({ aiPlatform: "openrouter", model: "mistralai/mixtral" });
    expect(chooseModel("openai", [locked])).toEqual({ aiPlatform: "openai" });
  });
});

describe("parseModelValue", () => {
  it("splits at the first slash only, so model names keep theirs", () => {
    expect(parseModelValue("openai")).toEqual({ slug: "openai", model: null });
    expect(parseModelValue("openai/gpt-4o")).toEqual({ slug: "openai", model: "gpt-4o" });
    expect(parseModelValue("openrouter/meta-llama/llama-3-8b")).toEqual({ slug: "openrouter", model: "meta-llama/llama-3-8b" });
    expect(parseModelValue("openai/")).toEqual({ slug: "openai", model: null });
  });
});
