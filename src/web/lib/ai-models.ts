/**
 * Options of the "Default model" select. A fixed list until GET /api/ai/platforms
 * exists (chat issue); replace this one file with that call then.
 */
export type ModelOption = { value: string; label: string };

export const MODEL_OPTIONS: readonly ModelOption[] = [
  { value: "openai", label: "OpenAI (default)" },
  { value: "anthropic-claude", label: "Anthropic Claude" },
  { value: "deepseek", label: "Deepseek" },
  { value: "mistral", label: "Mistral" },
];
