ALTER TABLE "quiz_versions" ADD COLUMN "tutor_open" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lessons" ADD COLUMN "without_source" boolean DEFAULT false NOT NULL;