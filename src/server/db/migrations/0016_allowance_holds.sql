CREATE TABLE "ai_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tokens" integer NOT NULL,
	"prompt_estimate" integer NOT NULL,
	"owner" text NOT NULL,
	"message_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_holds" ADD CONSTRAINT "ai_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_holds_user_idx" ON "ai_holds" USING btree ("user_id");--> statement-breakpoint
-- Decision 028: one allowance rule for every AI call, and tokens held from the claim until the call is settled, as a
-- card payment holds an amount before it is captured. The functions of migration 0015 change shape (the verdict no
-- longer needs to know whether a message is stored; the claim and a reply's start take the hold), so they are
-- dropped and made again.
DROP FUNCTION "start_reply"(integer, integer, integer, boolean, integer, integer, text, jsonb, text, text, text, text, text);
--> statement-breakpoint
DROP FUNCTION "claim_ai_slot"(integer, integer, boolean);
--> statement-breakpoint
DROP FUNCTION "ai_slot_verdict"(integer, integer, boolean);
--> statement-breakpoint
-- held: the tokens of the user's calls under way; hold_id: the hold a claim took (null for a verdict alone).
ALTER TYPE "ai_slot" ADD ATTRIBUTE "held" bigint, ADD ATTRIBUTE "hold_id" integer;
--> statement-breakpoint
-- What a user may start now, for every AI call (a reply, a one-shot call, a regenerate, an edit, course generation,
-- and whatever calls a model later): replies and course runs running first (admins counted like everyone; null
-- max_running: no such limit), then, admins exempt, the month's tokens spent, the day's messages sent, and last the
-- month's tokens held by calls under way ('held': a wait, not a spent allowance).
CREATE FUNCTION "ai_slot_verdict"("uid" integer, "max_running" integer) RETURNS "ai_slot"
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
      + (SELECT count(*) FROM course_generation_runs r WHERE r.user_id = u.id AND r.status = 'running'))::integer,
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
--> statement-breakpoint
-- The claim, the one every AI call makes (inside the caller's transaction, or as a statement of its own): the user's
-- row lock first (two claims of one user, on any instance, queue here), then the verdict read after it (its own
-- statement: a fresh snapshot that sees the holds and counts the claim it waited for committed); when allowed, a
-- stored user message counted for today (new_message) and, with hold_tokens, a hold of that many tokens for `owner`
-- (its id in hold_id). Without hold_tokens (a stored message that asks no model, a course run's start) no hold.
CREATE FUNCTION "claim_ai_slot"("uid" integer, "max_running" integer, "new_message" boolean, "hold_tokens" integer,
  "prompt_estimate" integer, "hold_owner" text) RETURNS "ai_slot"
LANGUAGE plpgsql AS $fn$
DECLARE
  slot ai_slot;
BEGIN
  PERFORM 1 FROM users WHERE id = uid FOR NO KEY UPDATE;
  SELECT * INTO slot FROM ai_slot_verdict(uid, max_running);
  IF slot.verdict = 'ok' THEN
    IF new_message THEN
      INSERT INTO usage_days (user_id, day, messages) VALUES (uid, (now() AT TIME ZONE 'UTC')::date, 1)
        ON CONFLICT (user_id, day) DO UPDATE SET messages = usage_days.messages + 1;
    END IF;
    IF hold_tokens IS NOT NULL THEN
      INSERT INTO ai_holds (user_id, tokens, prompt_estimate, owner)
        VALUES (uid, greatest(hold_tokens, 0), greatest(coalesce(prompt_estimate, 0), 0), hold_owner)
        RETURNING id INTO slot.hold_id;
    END IF;
  END IF;
  RETURN slot;
END
$fn$;
--> statement-breakpoint
-- A call's end (success, error, stop, shutdown, or the orphan sweep): its hold goes and the tokens it really spent are
-- added to the month, in one statement, so no claim sees neither or both. False when the hold was already settled
-- (then nothing is added: it is counted once).
CREATE FUNCTION "settle_ai_hold"("hold" integer, "spent" integer) RETURNS boolean
LANGUAGE plpgsql AS $fn$
DECLARE
  uid integer;
BEGIN
  DELETE FROM ai_holds WHERE id = hold RETURNING user_id INTO uid;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF spent > 0 THEN
    INSERT INTO usage_months (user_id, month, tokens) VALUES (uid, date_trunc('month', now() AT TIME ZONE 'UTC')::date, spent)
      ON CONFLICT (user_id, month) DO UPDATE SET tokens = usage_months.tokens + excluded.tokens;
  END IF;
  RETURN true;
END
$fn$;
--> statement-breakpoint
-- A reply's start (send, edit, regenerate), as in migration 0015, with the reply's hold: the claim (hold_tokens for the
-- reply's owner), the chat's row lock, no reply already being written, the leaf shown unchanged when asked, then the
-- user's message (when given), the empty streaming reply, the hold tied to it, and the chat's leaf, time and, with a
-- user's message, platform, model and new title: { verdict: 'ok', user, reply, hold }. A refused claim writes nothing
-- and is answered ({ verdict, slot }); a refusal after it is raised with SQLSTATE RS000 and the verdict as its
-- message, so the statement writes nothing (neither the day's count nor the hold).
CREATE FUNCTION "start_reply"("uid" integer, "cid" integer, "max_running" integer, "check_leaf" boolean,
  "expected_leaf" integer, "parent" integer, "user_content" text, "user_attachments" jsonb, "reply_slug" text,
  "reply_model" text, "reply_personality" text, "reply_owner" text, "new_title" text, "hold_tokens" integer,
  "prompt_estimate" integer) RETURNS json
LANGUAGE plpgsql AS $fn$
DECLARE
  slot ai_slot;
  chat record;
  user_row messages;
  reply_row messages;
BEGIN
  SELECT * INTO slot FROM claim_ai_slot(uid, max_running, user_content IS NOT NULL, hold_tokens, prompt_estimate, reply_owner);
  IF slot.verdict IS DISTINCT FROM 'ok' AND slot.verdict IS NOT NULL THEN
    RETURN json_build_object('verdict', slot.verdict, 'slot', to_json(slot));
  END IF;
  SELECT chat_shown_leaf(c.id, c.active_leaf_id) AS leaf, EXISTS(SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.status = 'streaming') AS streaming
  INTO chat FROM chats c WHERE c.id = cid AND c.user_id = uid FOR UPDATE OF c;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'RS000', MESSAGE = 'not-found';
  END IF;
  IF chat.streaming THEN
    RAISE EXCEPTION USING ERRCODE = 'RS000', MESSAGE = 'streaming';
  END IF;
  IF check_leaf AND chat.leaf IS DISTINCT FROM expected_leaf THEN
    RAISE EXCEPTION USING ERRCODE = 'RS000', MESSAGE = 'changed';
  END IF;
  IF user_content IS NOT NULL THEN
    INSERT INTO messages (chat_id, user_id, parent_id, role, content, attachments)
      VALUES (cid, uid, parent, 'user', user_content, user_attachments) RETURNING * INTO user_row;
    parent := user_row.id;
  END IF;
  INSERT INTO messages (chat_id, user_id, parent_id, role, content, status, platform_slug, model, personality_name, generation_owner)
    VALUES (cid, uid, parent, 'assistant', '', 'streaming', reply_slug, reply_model, reply_personality, reply_owner)
    RETURNING * INTO reply_row;
  IF slot.hold_id IS NOT NULL THEN
    UPDATE ai_holds SET message_id = reply_row.id WHERE id = slot.hold_id;
  END IF;
  IF user_content IS NOT NULL THEN
    UPDATE chats SET active_leaf_id = reply_row.id, updated_at = now(), ai_platform = reply_slug, model = reply_model,
      title = coalesce(new_title, title) WHERE id = cid;
  ELSE
    UPDATE chats SET active_leaf_id = reply_row.id, updated_at = now() WHERE id = cid;
  END IF;
  RETURN json_build_object('verdict', 'ok',
    'user', CASE WHEN user_row.id IS NULL THEN NULL ELSE to_jsonb(user_row) - 'content_search' END,
    'reply', to_jsonb(reply_row) - 'content_search', 'hold', slot.hold_id);
END
$fn$;
