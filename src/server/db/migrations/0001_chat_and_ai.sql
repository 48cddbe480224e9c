CREATE TABLE "ai_platforms" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"kind" text NOT NULL,
	"api_key_encrypted" text,
	"api_key_hint" text,
	"base_url" text,
	"models" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"default_model" text,
	"free_models" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"temperature" real DEFAULT 0.7 NOT NULL,
	"max_tokens" integer DEFAULT 1024 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_platforms_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "global_ai_prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"prompt" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_ai_prompts_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"ai_platform" text NOT NULL,
	"model" text,
	"temporary" boolean DEFAULT false NOT NULL,
	"title_search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"chat_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"error" text,
	"platform_slug" text,
	"model" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_tokens" integer,
	"output_tokens" integer,
	"generation_owner" text,
	"content_search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', left(content, 100000))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_user_recent_idx" ON "chats" USING btree ("user_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chats_title_search_idx" ON "chats" USING gin ("title_search");--> statement-breakpoint
CREATE INDEX "messages_chat_id_idx" ON "messages" USING btree ("chat_id","id");--> statement-breakpoint
CREATE INDEX "messages_content_search_idx" ON "messages" USING gin ("content_search");--> statement-breakpoint
CREATE INDEX "messages_streaming_idx" ON "messages" USING btree ("status") WHERE status = 'streaming';