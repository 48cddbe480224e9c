import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.js";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

export const paymentSettings = pgTable("payment_settings", {
  id: serial("id").primaryKey(),
  earlyAccessPrice: numeric("early_access_price", { precision: 10, scale: 2 }).notNull().default("297"),
  currency: text("currency").notNull().default("USD"),
  stripePriceId: text("stripe_price_id"),
  stripeProductId: text("stripe_product_id"),
  /** Keys an admin entered (AES-256-GCM, server/lib/secret-box.ts); the environment's keys win. Never sent back. */
  stripeSecretKeyEncrypted: text("stripe_secret_key_encrypted"),
  stripePublishableKeyEncrypted: text("stripe_publishable_key_encrypted"),
  stripeWebhookSecretEncrypted: text("stripe_webhook_secret_encrypted"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const gettingStartedVideos = pgTable(
  "getting_started_videos",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    subtitle: text("subtitle"),
    description: text("description"),
    embedUrl: text("embed_url").notNull(),
    order: integer("order").notNull().default(1),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("getting_started_videos_active_order_idx").on(t.isActive, t.order)],
);

export const platformSettings = pgTable("platform_settings", {
  id: serial("id").primaryKey(),
  platformName: text("platform_name").notNull().default("Lumora"),
  defaultModel: text("default_model").notNull().default("openai-gpt4"),
  allowRegistration: boolean("allow_registration").notNull().default(true),
  enableHistory: boolean("enable_history").notNull().default(true),
  enableModelSelection: boolean("enable_model_selection").notNull().default(true),
  smtpHost: text("smtp_host"),
  smtpPort: text("smtp_port").notNull().default("587"),
  smtpSecure: boolean("smtp_secure").notNull().default(false),
  smtpUser: text("smtp_user"),
  /** AES-256-GCM ciphertext (see server/lib/secret-box.ts), never sent to the browser. */
  smtpPassEncrypted: text("smtp_pass_encrypted"),
  smtpFromEmail: text("smtp_from_email"),
  smtpFromName: text("smtp_from_name"),
  /** Shown on the contact page; contact messages are emailed to it (to every admin when empty). */
  supportEmail: text("support_email"),
  /** A reply's tool steps at most (issue 34), and each tool call's time limit. */
  toolMaxSteps: integer("tool_max_steps").notNull().default(8),
  toolCallTimeoutSeconds: integer("tool_call_timeout_seconds").notNull().default(30),
  /** The plans whose users may make personal API tokens (issue 35): every plan unless an admin turns one off. */
  apiTokenPlans: jsonb("api_token_plans").$type<string[]>().notNull().default(["free", "earlyAccess"]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A message sent from the public contact form; admins read it on the Contact Messages page. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject", { enum: ["general", "support", "billing", "partnership", "feedback"] }).notNull(),
    isUser: boolean("is_user").notNull().default(false),
    message: text("message").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Newest first, all or unread only, paged by id.
  (t) => [index("contact_messages_unread_idx").on(t.id).where(sql`${t.readAt} is null`)],
);

/** Uploaded images (avatars now, course covers later), kept in the database so every instance serves them. */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    mimeType: text("mime_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("uploads_user_id_idx").on(t.userId)],
);
