import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { chats, messages } from "./chat.js";
import { courses, lessons } from "./courses.js";
import { knowledgeChunks, knowledgeFiles } from "./knowledge.js";

/**
 * The passages a grounded lesson was written from (issue 31): each one the server retrieved for that lesson and gave to
 * the model, numbered as the lesson's text cites it ([n]). A file, piece, chat or message deleted later sets its id
 * null and the entry stays ("source removed"); the lesson's text is never touched by it. The tutor of a course searches
 * only the pieces listed here (`chunk_id`), never the owner's whole library.
 */
export const lessonSources = pgTable(
  "lesson_sources",
  {
    id: serial("id").primaryKey(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    n: integer("n").notNull(),
    /** file | message */
    kind: text("kind").notNull(),
    fileId: integer("file_id").references(() => knowledgeFiles.id, { onDelete: "set null" }),
    chunkId: integer("chunk_id").references(() => knowledgeChunks.id, { onDelete: "set null" }),
    fileName: text("file_name"),
    page: integer("page"),
    chatId: integer("chat_id").references(() => chats.id, { onDelete: "set null" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    /** The passage as given to the model (a message's text, up to the budget). */
    passage: text("passage").notNull(),
  },
  (t) => [
    uniqueIndex("lesson_sources_lesson_n_idx").on(t.lessonId, t.n),
    index("lesson_sources_course_idx").on(t.courseId),
    index("lesson_sources_chunk_idx").on(t.chunkId),
    index("lesson_sources_file_idx").on(t.fileId),
    index("lesson_sources_message_idx").on(t.messageId),
  ],
);
