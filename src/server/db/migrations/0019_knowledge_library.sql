CREATE TABLE "chat_collections" (
	"chat_id" integer NOT NULL,
	"collection_id" integer NOT NULL,
	CONSTRAINT "chat_collections_chat_id_collection_id_pk" PRIMARY KEY("chat_id","collection_id")
);
--> statement-breakpoint
CREATE TABLE "embedding_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"platform_slug" text,
	"model" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"page" integer,
	"heading_path" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"tokens" integer NOT NULL,
	"content_search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED
);
--> statement-breakpoint
CREATE TABLE "knowledge_collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_file_bytes" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"collection_id" integer,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"kind" text NOT NULL,
	"byte_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage" text DEFAULT 'db' NOT NULL,
	"storage_key" text,
	"pages" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"stage" text,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"error" text,
	"tokens" integer,
	"embedding_model" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personality_collections" (
	"personality_id" integer NOT NULL,
	"collection_id" integer NOT NULL,
	CONSTRAINT "personality_collections_personality_id_collection_id_pk" PRIMARY KEY("personality_id","collection_id")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_allowances" ADD COLUMN "storage_bytes" bigint;--> statement-breakpoint
ALTER TABLE "plan_allowances" ADD COLUMN "max_files" integer;--> statement-breakpoint
ALTER TABLE "plan_allowances" ADD COLUMN "max_file_bytes" bigint;--> statement-breakpoint
ALTER TABLE "chat_collections" ADD CONSTRAINT "chat_collections_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_collections" ADD CONSTRAINT "chat_collections_collection_id_knowledge_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."knowledge_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_file_id_knowledge_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."knowledge_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_collections" ADD CONSTRAINT "knowledge_collections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_file_bytes" ADD CONSTRAINT "knowledge_file_bytes_file_id_knowledge_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."knowledge_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_collection_id_knowledge_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."knowledge_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personality_collections" ADD CONSTRAINT "personality_collections_personality_id_personalities_id_fk" FOREIGN KEY ("personality_id") REFERENCES "public"."personalities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personality_collections" ADD CONSTRAINT "personality_collections_collection_id_knowledge_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."knowledge_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_collections_collection_idx" ON "chat_collections" USING btree ("collection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_chunks_file_index_idx" ON "knowledge_chunks" USING btree ("file_id","chunk_index");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_user_idx" ON "knowledge_chunks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin ("content_search");--> statement-breakpoint
CREATE INDEX "knowledge_collections_user_idx" ON "knowledge_collections" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "knowledge_files_user_recent_idx" ON "knowledge_files" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "knowledge_files_collection_idx" ON "knowledge_files" USING btree ("collection_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "knowledge_files_due_idx" ON "knowledge_files" USING btree ("next_attempt_at") WHERE status in ('queued', 'processing');--> statement-breakpoint
CREATE INDEX "personality_collections_collection_idx" ON "personality_collections" USING btree ("collection_id");--> statement-breakpoint
INSERT INTO "plan_allowances" ("plan_type", "storage_bytes", "max_files", "max_file_bytes") VALUES ('free', 52428800, 20, 52428800), ('earlyAccess', 2147483648, 1000, 52428800) ON CONFLICT ("plan_type") DO UPDATE SET "storage_bytes" = excluded."storage_bytes", "max_files" = excluded."max_files", "max_file_bytes" = excluded."max_file_bytes";--> statement-breakpoint
INSERT INTO "embedding_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
