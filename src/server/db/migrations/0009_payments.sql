CREATE TABLE "pending_checkouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"user_id" integer,
	"username" text NOT NULL,
	"name" text,
	"email" text,
	"password_hash" text,
	"binding_nonce" text NOT NULL,
	"claimed_at" timestamp with time zone,
	"payment_intent_id" text,
	"amount_minor" integer,
	"currency" text,
	"problem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "stripe_secret_key_encrypted" text;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "stripe_publishable_key_encrypted" text;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "stripe_webhook_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "pending_checkouts" ADD CONSTRAINT "pending_checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_checkouts_intent_idx" ON "pending_checkouts" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_checkouts_open_email_idx" ON "pending_checkouts" USING btree (lower("email")) WHERE "pending_checkouts"."status" = 'pending' and "pending_checkouts"."kind" = 'register';--> statement-breakpoint
CREATE UNIQUE INDEX "pending_checkouts_open_upgrade_idx" ON "pending_checkouts" USING btree ("user_id") WHERE "pending_checkouts"."status" = 'pending' and "pending_checkouts"."kind" = 'upgrade';--> statement-breakpoint
CREATE INDEX "pending_checkouts_status_updated_idx" ON "pending_checkouts" USING btree ("status","updated_at");