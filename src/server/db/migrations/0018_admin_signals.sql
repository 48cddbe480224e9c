ALTER TABLE "ai_platforms" ADD COLUMN "last_test_ok" boolean;--> statement-breakpoint
ALTER TABLE "ai_platforms" ADD COLUMN "last_test_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ai_platforms" ADD COLUMN "last_test_message" text;--> statement-breakpoint
ALTER TABLE "user_activity_logs" ADD COLUMN "deleted_username" text;--> statement-breakpoint
ALTER TABLE "user_activity_logs" ADD COLUMN "actor_id" integer;--> statement-breakpoint
ALTER TABLE "user_activity_logs" ADD COLUMN "actor_username" text;--> statement-breakpoint
ALTER TABLE "user_activity_logs" ADD COLUMN "by_system" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_activity_logs" ADD CONSTRAINT "user_activity_logs_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_activity_logs_actor_id_idx" ON "user_activity_logs" USING btree ("actor_id") WHERE "user_activity_logs"."actor_id" is not null;--> statement-breakpoint
-- Rows written before: a deletion kept the username in attempted_username, and the checkout reconciler wrote
-- "stripe" and "checkout reconciler" where a client's IP and user agent go.
UPDATE "user_activity_logs" SET "deleted_username" = "attempted_username", "attempted_username" = NULL WHERE "action" = 'user_deleted' AND "user_id" IS NULL;--> statement-breakpoint
UPDATE "user_activity_logs" SET "by_system" = true, "ip_address" = NULL, "user_agent" = NULL WHERE "ip_address" = 'stripe' AND "user_agent" = 'checkout reconciler';
