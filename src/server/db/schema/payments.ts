import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/**
 * One Early Access checkout: a registration waiting for its payment (`kind: register`, password already
 * hashed, no account yet) or a signed-in free user's upgrade (`kind: upgrade`). The PaymentIntent carries
 * this row's id in its metadata, and the row records the intent's price, so a price change never changes
 * what an intent must pay. The browser is bound by an httpOnly cookie whose value is an HMAC of
 * `id:bindingNonce` (nothing secret is stored); a new owner of the same email gets a new nonce.
 */
export const pendingCheckouts = pgTable(
  "pending_checkouts",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: ["register", "upgrade"] }).notNull(),
    /**
     * `pending` → `completed`; `abandoned` (replaced by a newer checkout, or the visitor chose Free: a payment
     * arriving later goes to an admin); `voided` (the price changed before it was paid: its intent is
     * cancelled, a payment arriving later goes to an admin; decision 029); `attention` (paid but could not
     * finish) → `resolved` (by an admin).
     */
    status: text("status", { enum: ["pending", "completed", "abandoned", "voided", "attention", "resolved"] })
      .notNull()
      .default("pending"),
    /** Upgrade: the account paying. Register: the account created (set on completion). */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    username: text("username").notNull(),
    name: text("name"),
    email: text("email"),
    /** argon2 hash of the chosen password (register only); cleared once the account exists. */
    passwordHash: text("password_hash"),
    bindingNonce: text("binding_nonce").notNull(),
    /** When the browser that owns the checkout was signed in with it; the binding then no longer works. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    paymentIntentId: text("payment_intent_id"),
    /** The price recorded with the intent: minor units and lowercase ISO currency. */
    amountMinor: integer("amount_minor"),
    currency: text("currency"),
    /** Why a paid checkout needs an admin (status `attention`). */
    problem: text("problem"),
    /** The address that started (or last revived) a registration checkout: a few live holds per address. */
    clientIp: text("client_ip"),
    /**
     * The last sign of life of its page (start, resume, the page's status read): a registration holds its
     * username and email only while this is recent (CHECKOUT_HOLD_IDLE_MS), never by its age alone.
     */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a price change voided it (status `voided`). */
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the reconciler last asked Stripe about it (its own clock: it never extends a checkout's hold). A
     * voided checkout: when Stripe confirmed its intent can no longer be paid (null until then: retried).
     */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("pending_checkouts_intent_idx").on(t.paymentIntentId),
    // One open checkout per email (registration) and per account (upgrade): a double submit finds the first.
    uniqueIndex("pending_checkouts_open_email_idx")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending' and ${t.kind} = 'register'`),
    uniqueIndex("pending_checkouts_open_upgrade_idx").on(t.userId).where(sql`${t.status} = 'pending' and ${t.kind} = 'upgrade'`),
    index("pending_checkouts_status_updated_idx").on(t.status, t.updatedAt),
    // The live holds of one address, counted when it starts another.
    index("pending_checkouts_open_ip_idx").on(t.clientIp, t.lastSeenAt).where(sql`${t.status} = 'pending' and ${t.kind} = 'register'`),
  ],
);

/** Stripe events already handled, by id: a redelivery answers 200 and does nothing twice. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
