ALTER TABLE "ai_holds" ADD COLUMN "running_call" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Decision 051: a request of the OpenAI-compatible endpoint has no row of its own (a reply has its message, a course
-- run its run), so its hold says it runs (running_call) and the rule counts it with the replies and runs running:
-- a reply's start, a run's start and another such request all see it. As migration 0016's, with that one count more.
CREATE OR REPLACE FUNCTION "ai_slot_verdict"("uid" integer, "max_running" integer) RETURNS "ai_slot"
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  slot ai_slot;
BEGIN
  SELECT NULL, u.role::text, u.plan_type::text,
    coalesce((SELECT um.tokens FROM usage_months um
      WHERE um.user_id = u.id AND um.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)::bigint,
    coalesce((SELECT ud.messages FROM usage_days ud WHERE ud.user_id = u.id AND ud.day = (now() AT TIME ZONE 'UTC')::date), 0)::integer,
    pa.monthly_tokens::bigint, pa.messages_per_day::integer,
    ((SELECT count(*) FROM messages m WHERE m.user_id = u.id AND m.status = 'streaming')
      + (SELECT count(*) FROM course_generation_runs r WHERE r.user_id = u.id AND r.status = 'running')
      + (SELECT count(*) FROM ai_holds c WHERE c.user_id = u.id AND c.running_call))::integer,
    coalesce((SELECT sum(h.tokens) FROM ai_holds h WHERE h.user_id = u.id), 0)::bigint,
    NULL
  INTO slot
  FROM users u LEFT JOIN plan_allowances pa ON pa.plan_type = u.plan_type
  WHERE u.id = uid;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  slot.verdict := CASE
    WHEN max_running IS NOT NULL AND slot.running >= max_running THEN 'running'
    WHEN slot.role = 'admin' THEN 'ok'
    WHEN slot.monthly_tokens IS NOT NULL AND slot.tokens >= slot.monthly_tokens THEN 'tokens'
    WHEN slot.messages_per_day IS NOT NULL AND slot.messages_today >= slot.messages_per_day THEN 'messages'
    WHEN slot.monthly_tokens IS NOT NULL AND slot.tokens + slot.held >= slot.monthly_tokens THEN 'held'
    ELSE 'ok'
  END;
  RETURN slot;
END
$fn$;
