ALTER TABLE "pending_checkouts" ADD COLUMN "client_ip" text;--> statement-breakpoint
ALTER TABLE "pending_checkouts" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_checkouts" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "pending_checkouts_open_ip_idx" ON "pending_checkouts" USING btree ("client_ip","last_seen_at") WHERE "pending_checkouts"."status" = 'pending' and "pending_checkouts"."kind" = 'register';