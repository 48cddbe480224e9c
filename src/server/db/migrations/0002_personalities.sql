CREATE TABLE "personalities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tone" text DEFAULT 'friendly' NOT NULL,
	"instructions" text NOT NULL,
	"temperature" real DEFAULT 0.7 NOT NULL,
	"max_tokens" integer DEFAULT 1024 NOT NULL,
	"platform_slug" text,
	"model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "personality_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "personality_name" text;--> statement-breakpoint
ALTER TABLE "personalities" ADD CONSTRAINT "personalities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personalities_user_id_idx" ON "personalities" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_personality_id_personalities_id_fk" FOREIGN KEY ("personality_id") REFERENCES "public"."personalities"("id") ON DELETE set null ON UPDATE no action;