-- Decision 025: the AI slot's rule and a reply's start run in the database, one round trip each.
-- What a user may start now: the one home of the allowance rule (decision 016). Admins count their running work
-- like everyone and are never refused an allowance; tokens this month come before messages today.
CREATE TYPE "ai_slot" AS ("verdict" text, "role" text, "plan_type" text, "tokens" bigint, "messages_today" integer,
  "monthly_tokens" bigint, "messages_per_day" integer, "running" integer);
--> statement-breakpoint
CREATE FUNCTION "ai_slot_verdict"("uid" integer, "max_running" integer, "new_message" boolean) RETURNS "ai_slot"
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
      + (SELECT count(*) FROM course_generation_runs r WHERE r.user_id = u.id AND r.status = 'running'))::integer
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
    WHEN new_message AND slot.messages_per_day IS NOT NULL AND slot.messages_today >= slot.messages_per_day THEN 'messages'
    ELSE 'ok'
  END;
  RETURN slot;
END
$fn$;
--> statement-breakpoint
-- The claim, inside the caller's transaction: the user's row lock first (two starts of one user, on any instance,
-- queue here), then the verdict read after it (its own statement: a fresh snapshot that sees what the start it
-- waited for committed), and a send counted for today when allowed.
CREATE FUNCTION "claim_ai_slot"("uid" integer, "max_running" integer, "new_message" boolean) RETURNS "ai_slot"
LANGUAGE plpgsql AS $fn$
DECLARE
  slot ai_slot;
BEGIN
  PERFORM 1 FROM users WHERE id = uid FOR NO KEY UPDATE;
  SELECT * INTO slot FROM ai_slot_verdict(uid, max_running, new_message);
  IF slot.verdict = 'ok' AND new_message THEN
    INSERT INTO usage_days (user_id, day, messages) VALUES (uid, (now() AT TIME ZONE 'UTC')::date, 1)
      ON CONFLICT (user_id, day) DO UPDATE SET messages = usage_days.messages + 1;
  END IF;
  RETURN slot;
END
$fn$;
--> statement-breakpoint
-- The leaf of a chat's branch shown: the one it remembers, else its newest message (decision 019).
-- plpgsql, not sql: its query is planned once per connection, where a sql function's is planned on every call.
CREATE FUNCTION "chat_shown_leaf"("chat" integer, "remembered" integer) RETURNS integer
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  IF remembered IS NOT NULL THEN
    RETURN remembered;
  END IF;
  RETURN (SELECT max(m.id) FROM messages m WHERE m.chat_id = chat);
END
$fn$;
--> statement-breakpoint
-- A reply's start (send, edit, regenerate): the claim, the chat's row lock (racing starts of one chat run the
-- checks one after the other), no reply already being written, the leaf shown unchanged when asked, then the
-- user's message (when given) after `parent`, the empty streaming reply after it (or after `parent`), and the chat's
-- leaf, time and, with a user's message, platform, model and new title: { verdict: 'ok', user, reply }. A refused
-- claim writes nothing and is answered ({ verdict, slot }); a refusal after it (the send may already be counted
-- for today) is raised with SQLSTATE RS000 and the verdict as its message, so the statement writes nothing.
CREATE FUNCTION "start_reply"("uid" integer, "cid" integer, "max_running" integer, "check_leaf" boolean,
  "expected_leaf" integer, "parent" integer, "user_content" text, "user_attachments" jsonb, "reply_slug" text,
  "reply_model" text, "reply_personality" text, "reply_owner" text, "new_title" text) RETURNS json
LANGUAGE plpgsql AS $fn$
DECLARE
  slot ai_slot;
  chat record;
  user_row messages;
  reply_row messages;
BEGIN
  SELECT * INTO slot FROM claim_ai_slot(uid, max_running, user_content IS NOT NULL);
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
  IF user_content IS NOT NULL THEN
    UPDATE chats SET active_leaf_id = reply_row.id, updated_at = now(), ai_platform = reply_slug, model = reply_model,
      title = coalesce(new_title, title) WHERE id = cid;
  ELSE
    UPDATE chats SET active_leaf_id = reply_row.id, updated_at = now() WHERE id = cid;
  END IF;
  RETURN json_build_object('verdict', 'ok',
    'user', CASE WHEN user_row.id IS NULL THEN NULL ELSE to_jsonb(user_row) - 'content_search' END,
    'reply', to_jsonb(reply_row) - 'content_search');
END
$fn$;
