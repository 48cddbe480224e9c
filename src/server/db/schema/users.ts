import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The text an admin search looks in (username, email, name), lower-cased: one expression for the trigram
 * index and for the queries, so the planner can use the index (`ILIKE '%term%'`).
 */
export const USER_SEARCH_TEXT = (t: { username: AnyPgColumn; email: AnyPgColumn; name: AnyPgColumn }) =>
  sql`lower(${t.username} || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.name}, ''))`;

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    name: text("name"),
    email: text("email"),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    planType: text("plan_type", { enum: ["free", "earlyAccess"] })
      .notNull()
      .default("free"),
    avatarUrl: text("avatar_url"),
    /** Set by admins: an inactive account cannot sign in, and its sessions end when it is disabled. */
    status: text("status", { enum: ["active", "inactive"] })
      .notNull()
      .default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    // The admin list: newest first, optionally one status; search uses the trigram index below.
    index("users_status_id_idx").on(t.status, t.id),
    index("users_search_trgm_idx").using("gin", sql`${USER_SEARCH_TEXT(t)} gin_trgm_ops`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: timestamp("idle_expires_at", { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp("absolute_expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

/**
 * Why a session was ended by something other than its own browser (issue "What a new user and an attacker found", 22):
 * written when the session's row is deleted, read only on the way to telling a browser that still holds its cookie
 * (a 401, the session probe), so the sign-in screen says why on every path. No foreign key: the row outlives a deleted
 * account. Kept until the session would have expired anyway (decision 061).
 */
export const endedSessions = pgTable(
  "ended_sessions",
  {
    /** The ended session's id (SHA-256 of its cookie token). */
    id: text("id").primaryKey(),
    userId: integer("user_id").notNull(),
    reason: text("reason", { enum: ["account_disabled", "account_deleted", "password_changed", "signed_out_by_admin"] }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("ended_sessions_user_id_idx").on(t.userId)],
);

export const userSettings = pgTable("user_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  defaultModel: text("default_model").notNull().default("openai"),
  temperature: numeric("temperature", { precision: 3, scale: 2, mode: "number" }).notNull().default(0.7),
  maxTokens: integer("max_tokens").notNull().default(1024),
  saveHistory: boolean("save_history").notNull().default(true),
  markdownRendering: boolean("markdown_rendering").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const userActivityLogs = pgTable(
  "user_activity_logs",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** For a failed login on an unknown account: the name that was tried. */
    attemptedUsername: text("attempted_username"),
    /** The username of the row's account, written on its rows when the account is deleted (user_id then becomes null). */
    deletedUsername: text("deleted_username"),
    /** An admin who acted on the row's account (null: the account's own action, or a visitor's). */
    actorId: integer("actor_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    /** That admin's username, kept for when their account is deleted (usernames never change). */
    actorUsername: text("actor_username"),
    /** Written by the server itself (a background job): no actor, no IP and no user agent. */
    bySystem: boolean("by_system").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("user_activity_logs_created_at_idx").on(t.createdAt),
    index("user_activity_logs_user_id_idx").on(t.userId, t.createdAt),
    index("user_activity_logs_action_id_idx").on(t.action, t.id),
    // Deleting an admin nulls actor_id on their rows: found by this index, not by reading the log.
    index("user_activity_logs_actor_id_idx").on(t.actorId).where(sql`${t.actorId} is not null`),
    index("user_activity_logs_ip_trgm_idx").using("gin", sql`lower(coalesce(${t.ipAddress}, '')) gin_trgm_ops`),
    // Failed logins of unknown accounts are found by the name that was tried.
    index("user_activity_logs_attempted_trgm_idx")
      .using("gin", sql`lower(coalesce(${t.attemptedUsername}, '')) gin_trgm_ops`)
      .where(sql`${t.userId} is null`),
  ],
);
