ALTER TABLE "ai_platforms" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING round("temperature"::numeric, 2);--> statement-breakpoint
ALTER TABLE "ai_platforms" ALTER COLUMN "temperature" SET DEFAULT 0.7;--> statement-breakpoint
ALTER TABLE "personalities" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING round("temperature"::numeric, 2);--> statement-breakpoint
ALTER TABLE "personalities" ALTER COLUMN "temperature" SET DEFAULT 0.7;--> statement-breakpoint
ALTER TABLE "user_settings" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING round("temperature"::numeric, 2);--> statement-breakpoint
ALTER TABLE "user_settings" ALTER COLUMN "temperature" SET DEFAULT 0.7;