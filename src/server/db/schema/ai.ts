import { boolean, integer, jsonb, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** An AI provider an admin configured (an "AI platform" on AI Chat Settings), with its key sealed by SecretBox. */
export const aiPlatforms = pgTable("ai_platforms", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  /** openai | anthropic | deepseek | mistral | openai-compatible */
  kind: text("kind").notNull(),
  /** chat-completions | responses: which OpenAI API its replies use (OpenAI only; decision 050). */
  api: text("api").notNull().default("chat-completions"),
  /** AES-256-GCM ciphertext; never leaves the server. */
  apiKeyEncrypted: text("api_key_encrypted"),
  /** `sk-...abcd`: what the admin page shows instead of the key. */
  apiKeyHint: text("api_key_hint"),
  baseUrl: text("base_url"),
  models: jsonb("models").$type<string[]>().notNull().default([]),
  defaultModel: text("default_model"),
  /** Models open to free-plan users. */
  freeModels: jsonb("free_models").$type<string[]>().notNull().default([]),
  /** An OpenAI-compatible server's models that read images (issue 30; other kinds follow shared/model-catalog.ts). */
  visionModels: jsonb("vision_models").$type<string[]>().notNull().default([]),
  temperature: numeric("temperature", { precision: 3, scale: 2, mode: "number" }).notNull().default(0.7),
  maxTokens: integer("max_tokens").notNull().default(1024),
  /** active | inactive */
  status: text("status").notNull().default("active"),
  /** The last connection test: passed or not (null: never tested), when, and what it said. */
  lastTestOk: boolean("last_test_ok"),
  lastTestAt: timestamp("last_test_at", { withTimezone: true }),
  lastTestMessage: text("last_test_message"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** System prompts looked up by key (chat-system, course-outline, lesson-content, course-description). */
export const globalAiPrompts = pgTable("global_ai_prompts", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  prompt: text("prompt").notNull(),
  description: text("description").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
