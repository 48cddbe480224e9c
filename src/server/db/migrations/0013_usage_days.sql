CREATE TABLE "usage_days" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
DROP INDEX "messages_user_sent_idx";--> statement-breakpoint
ALTER TABLE "usage_days" ADD CONSTRAINT "usage_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Today's messages so far, from the user messages stored today (UTC).
INSERT INTO "usage_days" ("user_id", "day", "messages")
	SELECT m."user_id", (now() AT TIME ZONE 'UTC')::date, count(*)
	FROM "messages" AS m JOIN "users" AS u ON u."id" = m."user_id"
	WHERE m."role" = 'user' AND m."created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
	GROUP BY m."user_id";
