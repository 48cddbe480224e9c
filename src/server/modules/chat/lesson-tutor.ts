import type { Db } from "../../db/client.js";
import type { Who } from "../../lib/who.js";
import type { RetrievedPassage } from "../knowledge/retrieval/passage.js";
import type { RetrievalDeps } from "../knowledge/retrieval/retrieve.js";
import { type GivenSource, type ReplyMaterial, sourcesBlock } from "./reply-material.js";

// A lesson's tutor chat (issue 31, decision 039): a chat of the reader's own whose replies are also given the lesson's
// text and passages of the course's sources. Who may read a lesson is the courses module's rule, and the courses module
// imports the chat module (a course made from a chat), so the chat module does not import it: the courses module's
// `tutorMaterial` is handed to the chat routes where the app is wired (app.ts).

/** What a tutor's reply is given: the lesson as a block of the system prompt, and the course's passages for the question. */
export interface TutorGiven {
  lesson: string;
  passages: RetrievedPassage[];
}

/**
 * Reads a tutor chat's lesson for one reply, checking again that `who` may still read it (it refuses with an `AppError`
 * otherwise), and searches the course's sources with `query` (only the pieces the course lists, never the owner's
 * library); the question's embedding is spent from `who`'s allowance.
 */
export type LessonTutor = (input: { db: Db; who: Who; lessonId: number; query: string; retrieval: RetrievalDeps }) => Promise<TutorGiven>;

/**
 * The tutor's lesson and passages, numbered [1]..[k] as chat material is, then the chat's own material (the reader's
 * files and collections, if any) numbered after them: one list of sources, so the reply's citations work as in chat.
 */
export function withTutor(tutor: TutorGiven, material: ReplyMaterial): ReplyMaterial {
  const sources: GivenSource[] = tutor.passages.map((p, i) => ({
    n: i + 1,
    chunkId: p.chunkId,
    fileId: p.fileId,
    fileName: p.fileName,
    page: p.page,
    text: p.content,
  }));
  for (const s of material.sources) sources.push({ ...s, n: sources.length + 1 });
  const block = [tutor.lesson, sources.length ? sourcesBlock(sources) : undefined].filter(Boolean).join("\n\n");
  return { sources, block, images: material.images };
}
