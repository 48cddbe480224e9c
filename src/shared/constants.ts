/** The product's business constants and defaults (docs/product.md, Defaults and constants). */
export const DEFAULT_CHAT_TITLE = "New Chat";
export const DEFAULT_PLATFORM_SLUG = "openai";
export const DEFAULT_MODEL = "openai";

export const TEMPERATURE = { min: 0, max: 1, step: 0.1, default: 0.7 } as const;
export const MAX_TOKENS = { min: 256, max: 4096, step: 256, default: 1024 } as const;

/** What holds before an admin saves anything (no settings row yet). */
export const PLATFORM_SETTINGS_DEFAULTS = {
  platformName: "Lumora",
  defaultModel: "openai-gpt4",
  allowRegistration: true,
  enableHistory: true,
  enableModelSelection: true,
} as const;

export const DEFAULT_PAYMENT_SETTINGS = { currency: "USD", earlyAccessPrice: "297" } as const;

export const THEME_STORAGE_KEY = "ui-theme";
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

export const PLAN_TYPES = ["free", "earlyAccess"] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Key of sessionStorage that holds the registration form between step 2 and checkout. */
export const PENDING_REGISTRATION_KEY = "pendingRegistration";

/** How a platform is spoken to; "openai-compatible" covers Ollama, vLLM, LM Studio, OpenRouter... */
export const PLATFORM_KINDS = ["openai", "anthropic", "deepseek", "mistral", "openai-compatible"] as const;

/** Text files attached to a chat message (their content goes with the message). */
export const ATTACHMENTS = {
  maxFiles: 5,
  maxBytesPerFile: 200 * 1024,
  /** All the attachments of one message together: what one message may send a model (the picker and the contract). */
  maxTotalChars: 300_000,
  extensions: [
    ".txt",
    ".md",
    ".markdown",
    ".csv",
    ".json",
    ".ts",
    ".tsx",
    ".js",
    ".jsx",
    ".py",
    ".java",
    ".c",
    ".cpp",
    ".h",
    ".cs",
    ".go",
    ".rs",
    ".rb",
    ".php",
    ".html",
    ".css",
    ".sql",
    ".sh",
    ".yaml",
    ".yml",
    ".xml",
    ".toml",
    ".ini",
    ".log",
  ],
} as const;

export const ATTACHMENTS_TOO_LONG = `The attached files of one message can hold at most ${ATTACHMENTS.maxTotalChars.toLocaleString("en-US")} characters in all`;

/** A chat message the user types: the product only asks for non-empty after trimming; this bounds it. */
export const MESSAGE_MAX_CHARS = 100_000;
