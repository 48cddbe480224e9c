import { describe, expect, it } from "vitest";
import { acceptsImages, cannotReadImagesMessage } from "./model-catalog.js";

describe("acceptsImages", () => {
  it("follows each provider's documentation", () => {
    const yes = (kind: string, model: string) => expect(acceptsImages({ kind }, model), `${kind} ${model}`).toBe(true);
    const no = (kind: string, model: string) => expect(acceptsImages({ kind }, model), `${kind} ${model}`).toBe(false);
    for (const m of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4o-2024-08-06",
      "gpt-4.1-nano",
      "gpt-5",
      "gpt-5-mini",
      "o1",
      "o3",
      "o3-pro",
      "o4-mini",
      "gpt-4-turbo",
    ])
      yes("openai", m);
    for (const m of ["gpt-3.5-turbo", "gpt-4", "o1-mini", "o3-mini"]) no("openai", m);
    for (const m of ["claude-3-haiku-20240307", "claude-3-5-sonnet-latest", "claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"])
      yes("anthropic", m);
    no("anthropic", "claude-2.1");
    for (const m of [
      "pixtral-large-latest",
      "pixtral-12b-2409",
      "mistral-medium-latest",
      "mistral-medium-2505",
      "mistral-small-2503",
      "mistral-small-latest",
      "mistral-large-2512",
    ])
      yes("mistral", m);
    for (const m of [
      "mistral-large-2411",
      "mistral-small-2501",
      "mistral-medium-2312",
      "mistral-tiny",
      "codestral-latest",
      "open-mistral-nemo",
    ])
      no("mistral", m);
    for (const m of ["deepseek-chat", "deepseek-reasoner"]) no("deepseek", m);
  });

  it("an OpenAI-compatible server's models read images only when its admin marked them", () => {
    expect(acceptsImages({ kind: "openai-compatible", visionModels: ["llava"] }, "llava")).toBe(true);
    expect(acceptsImages({ kind: "openai-compatible", visionModels: ["llava"] }, "gpt-4o")).toBe(false);
    expect(acceptsImages({ kind: "openai-compatible" }, "llava")).toBe(false);
  });

  it("says which models can, up to three", () => {
    expect(cannotReadImagesMessage("deepseek-chat", ["gpt-4o", "claude-sonnet-4-5", "pixtral-large-latest", "gpt-5"])).toBe(
      "DeepSeek Chat cannot read images. Choose a model that can, such as GPT-4o, Claude Sonnet 4.5 or Pixtral Large.",
    );
    expect(cannotReadImagesMessage("deepseek-chat", ["gpt-4o"])).toBe(
      "DeepSeek Chat cannot read images. Choose a model that can, such as GPT-4o.",
    );
    expect(cannotReadImagesMessage("deepseek-chat", [])).toBe(
      "DeepSeek Chat cannot read images. No model you can use reads images: remove the image to send.",
    );
  });
});
