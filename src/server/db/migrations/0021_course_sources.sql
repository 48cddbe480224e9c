CREATE TABLE "lesson_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"lesson_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"n" integer NOT NULL,
	"kind" text NOT NULL,
	"file_id" integer,
	"chunk_id" integer,
	"file_name" text,
	"page" integer,
	"chat_id" integer,
	"message_id" integer,
	"passage" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "tutor_lesson_id" integer;--> statement-breakpoint
ALTER TABLE "course_generation_runs" ADD COLUMN "sources" jsonb;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "source_scope" jsonb;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_file_id_knowledge_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."knowledge_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_chunk_id_knowledge_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."knowledge_chunks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_sources" ADD CONSTRAINT "lesson_sources_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_sources_lesson_n_idx" ON "lesson_sources" USING btree ("lesson_id","n");--> statement-breakpoint
CREATE INDEX "lesson_sources_course_idx" ON "lesson_sources" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "lesson_sources_chunk_idx" ON "lesson_sources" USING btree ("chunk_id");--> statement-breakpoint
CREATE INDEX "lesson_sources_file_idx" ON "lesson_sources" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "lesson_sources_message_idx" ON "lesson_sources" USING btree ("message_id");--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_tutor_lesson_id_lessons_id_fk" FOREIGN KEY ("tutor_lesson_id") REFERENCES "public"."lessons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chats_user_tutor_lesson_idx" ON "chats" USING btree ("user_id","tutor_lesson_id") WHERE tutor_lesson_id is not null;