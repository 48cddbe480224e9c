CREATE TABLE "chat_folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_allowances" (
	"plan_type" text PRIMARY KEY NOT NULL,
	"monthly_tokens" integer,
	"messages_per_day" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_months" (
	"user_id" integer NOT NULL,
	"month" date NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_months_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "folder_id" integer;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "pinned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "active_leaf_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "chat_folders" ADD CONSTRAINT "chat_folders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_months" ADD CONSTRAINT "usage_months_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_folders_user_name_idx" ON "chat_folders" USING btree ("user_id","name");--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_folder_id_chat_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."chat_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_active_leaf_id_messages_id_fk" FOREIGN KEY ("active_leaf_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_parent_id_messages_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_user_folder_recent_idx" ON "chats" USING btree ("user_id","folder_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chats_user_pinned_idx" ON "chats" USING btree ("user_id","pinned_at" DESC NULLS LAST) WHERE pinned_at is not null;--> statement-breakpoint
CREATE INDEX "messages_chat_parent_idx" ON "messages" USING btree ("chat_id","parent_id","id");--> statement-breakpoint
CREATE INDEX "messages_user_sent_idx" ON "messages" USING btree ("user_id","created_at") WHERE role = 'user';--> statement-breakpoint
-- Chats before branches were one line: each message follows the one before it in its chat.
UPDATE "messages" AS m SET "parent_id" = p.prev FROM (
	SELECT "id", lag("id") OVER (PARTITION BY "chat_id" ORDER BY "id") AS prev FROM "messages"
) AS p WHERE p."id" = m."id" AND p.prev IS NOT NULL;--> statement-breakpoint
-- This month's tokens so far, from the replies that recorded them.
INSERT INTO "usage_months" ("user_id", "month", "tokens")
	SELECT m."user_id", date_trunc('month', now() AT TIME ZONE 'UTC')::date, sum(coalesce(m."input_tokens", 0) + coalesce(m."output_tokens", 0))
	FROM "messages" AS m JOIN "users" AS u ON u."id" = m."user_id"
	WHERE m."created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
		AND (m."input_tokens" IS NOT NULL OR m."output_tokens" IS NOT NULL)
	GROUP BY m."user_id";
