ALTER TABLE "chats" ADD COLUMN "import_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chats_user_import_key_idx" ON "chats" USING btree ("user_id","import_key") WHERE import_key is not null;