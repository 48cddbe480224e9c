-- A chat is listed once it has a message (decision 077): a column of the row, so the sidebar's lists and the folders'
-- counts read no message to know it. The database sets it on every insert of messages, whatever wrote them.
ALTER TABLE "chats" ADD COLUMN "has_messages" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "chats" c SET "has_messages" = true WHERE EXISTS (SELECT 1 FROM "messages" m WHERE m.chat_id = c.id);--> statement-breakpoint
-- Once per statement, over the chats of the messages it wrote; a chat already marked is not written again.
CREATE FUNCTION "chats_have_messages"() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE chats c SET has_messages = true WHERE c.id IN (SELECT DISTINCT a.chat_id FROM added a) AND NOT c.has_messages;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "chats_have_messages" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS "added"
FOR EACH STATEMENT EXECUTE FUNCTION "chats_have_messages"();--> statement-breakpoint
CREATE INDEX "chats_user_folder_listed_idx" ON "chats" USING btree ("user_id","folder_id") WHERE folder_id is not null and not temporary and has_messages;
