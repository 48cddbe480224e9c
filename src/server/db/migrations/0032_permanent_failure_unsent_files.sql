ALTER TABLE "knowledge_files" ADD COLUMN "permanent_failure" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD COLUMN "unsent_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "knowledge_files_unsent_idx" ON "knowledge_files" USING btree ("unsent_until") WHERE unsent_until is not null;--> statement-breakpoint
-- Files that failed before the column: every failure but the two a retry may mend (the provider or the database away,
-- a reader that kept stopping) came from a ReadingError (decision 068).
UPDATE "knowledge_files" SET "permanent_failure" = true
WHERE "status" = 'failed' AND "error" NOT LIKE 'We could not index this file:%' AND "error" NOT LIKE 'Reading this file stopped several times%';
