-- One temperature rule everywhere (0 to 1 in steps of 0.1, stored exactly): values saved before it are
-- brought onto the step, so every saved platform and personality can be saved again as it is.
ALTER TABLE "ai_platforms" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING least(1, greatest(0, round("temperature"::numeric, 1)));--> statement-breakpoint
ALTER TABLE "ai_platforms" ALTER COLUMN "temperature" SET DEFAULT 0.7;--> statement-breakpoint
ALTER TABLE "personalities" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING least(1, greatest(0, round("temperature"::numeric, 1)));--> statement-breakpoint
ALTER TABLE "personalities" ALTER COLUMN "temperature" SET DEFAULT 0.7;--> statement-breakpoint
ALTER TABLE "user_settings" ALTER COLUMN "temperature" SET DATA TYPE numeric(3, 2) USING least(1, greatest(0, round("temperature"::numeric, 1)));--> statement-breakpoint
ALTER TABLE "user_settings" ALTER COLUMN "temperature" SET DEFAULT 0.7;--> statement-breakpoint
-- Response length of personalities: 256 to 4096 in steps of 256, like the user setting.
UPDATE "personalities" SET "max_tokens" = least(4096, greatest(256, round("max_tokens" / 256.0) * 256)) WHERE "max_tokens" % 256 <> 0 OR "max_tokens" < 256 OR "max_tokens" > 4096;
