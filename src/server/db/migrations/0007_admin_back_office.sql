-- Admin search (users by username, email or name; activity by IP or the name a failed login tried) matches anywhere in the text: trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_user_usage_idx" ON "messages" USING btree ("user_id","created_at") WHERE input_tokens is not null or output_tokens is not null;--> statement-breakpoint
CREATE INDEX "user_activity_logs_action_id_idx" ON "user_activity_logs" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "user_activity_logs_ip_trgm_idx" ON "user_activity_logs" USING gin (lower(coalesce("ip_address", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_activity_logs_attempted_trgm_idx" ON "user_activity_logs" USING gin (lower(coalesce("attempted_username", '')) gin_trgm_ops) WHERE "user_activity_logs"."user_id" is null;--> statement-breakpoint
CREATE INDEX "users_status_id_idx" ON "users" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (lower("username" || ' ' || coalesce("email", '') || ' ' || coalesce("name", '')) gin_trgm_ops);