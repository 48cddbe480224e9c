import { z } from "zod";
import { passageInContextSchema } from "./citation.js";
import { idField, idParamsSchema, idText } from "./common.js";
import { endpoint, tokenScoped } from "./endpoint.js";
import { hintsField, longTitleField, promptTitleField, titleField } from "./fields.js";

export const LESSON_TYPES = ["reading", "video", "quiz", "exercise"] as const;
/** What a lesson holds (issue 32): text to read, or a quiz's questions (its content is then an optional introduction). */
export const LESSON_KINDS = ["reading", "quiz"] as const;
/** Drip release (issue 32): days after the learner started the course; null opens at once. */
const releaseAfterDays = z
  .number()
  .int("Enter whole days")
  .min(0, "Days cannot be negative")
  .max(365, "A lesson can open at most 365 days after the start")
  .nullable();
export const COURSE_STATUSES = ["draft", "published"] as const;
/** How the course's certificate looks (decision 062); `classic` until the owner chooses. */
export const CERTIFICATE_STYLES = ["classic", "modern", "minimal"] as const;
export type CertificateStyle = (typeof CERTIFICATE_STYLES)[number];
export const CERTIFICATE_STYLE_LABELS: Record<CertificateStyle, string> = { classic: "Classic", modern: "Modern", minimal: "Minimal" };
const certificateStyle = z.enum(CERTIFICATE_STYLES, { error: "Choose Classic, Modern or Minimal" });
export const COURSE_NOT_FOUND = "Course not found";
export const MODULE_NOT_FOUND = "Module not found";
export const LESSON_NOT_FOUND = "Lesson not found";
export const COURSE_FORBIDDEN = "You don't have permission to view this course.";
export const COURSE_EDIT_FORBIDDEN = "You don't have permission to edit this course.";

const description = z.string().trim().max(5000, "Description cannot exceed 5000 characters");

/** POST /api/courses (title at least 3 characters; draft and private by default; docs/product.md, Courses and lessons). */
export const createCourseBodySchema = z.object({
  title: longTitleField,
  description: description.optional().default(""),
  isPublic: z.boolean().default(false),
  status: z.enum(COURSE_STATUSES).default("draft"),
});
export type CreateCourseBody = z.input<typeof createCourseBodySchema>;
/** What the service receives: checked, defaults applied. */
export type CreateCourseInput = z.output<typeof createCourseBodySchema>;

/** PATCH /api/courses/{id}: the edit form (title required, status required). */
export const updateCourseBodySchema = z.object({
  title: titleField.optional(),
  description: description.optional(),
  status: z.enum(COURSE_STATUSES, { error: "Status is required" }).optional(),
  isPublic: z.boolean().optional(),
  /** Issue 33: a public, published course is in the visitors' catalogue unless this is off. */
  listedInCatalog: z.boolean().optional(),
  certificateStyle: certificateStyle.optional(),
});
export type UpdateCourseBody = z.input<typeof updateCourseBodySchema>;
export type CourseChanges = z.output<typeof updateCourseBodySchema>;

export const courseSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(COURSE_STATUSES),
  isPublic: z.boolean(),
  /** Listed in the public catalogue while public and published (issue 33). */
  listedInCatalog: z.boolean(),
  certificateStyle,
  coverImage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Course = z.infer<typeof courseSchema>;

/** GET /api/courses?scope=all|mine|public&limit&cursor (the three tabs); next page in X-Next-Cursor. */
export const courseListQuerySchema = z.object({
  scope: z.enum(["all", "mine", "public"]).default("all"),
  limit: z.coerce.number().int().min(1).max(100).default(60),
  cursor: z.string().max(40).optional(),
});
export type CourseListQuery = z.output<typeof courseListQuerySchema>;

/** POST /api/courses/{id}/modules and PATCH /api/modules/{id}. `order` is ignored on create: the server appends. */
export const moduleBodySchema = z.object({
  title: titleField,
  description: description.optional().default(""),
  order: z.number().int().optional(),
  releaseAfterDays: releaseAfterDays.default(null),
});
/** PATCH: only what was sent changes. Written out, because `.partial()` keeps `.default()` and would reset fields. */
export const updateModuleBodySchema = z.object({
  title: moduleBodySchema.shape.title.optional(),
  description: description.optional(),
  releaseAfterDays: releaseAfterDays.optional(),
});
export type ModuleInput = z.output<typeof moduleBodySchema>;
export type ModuleChanges = z.output<typeof updateModuleBodySchema>;

export const moduleSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  title: z.string(),
  description: z.string(),
  order: z.number().int(),
  releaseAfterDays: z.number().int().nullable(),
});
export type CourseModule = z.infer<typeof moduleSchema>;

/** POST /api/modules/{id}/lessons and PATCH /api/lessons/{id} (title, type and content required; docs/product.md, Courses and lessons). */
const lessonContent = z.string({ error: "Content is required" }).trim().max(200_000, "Content cannot exceed 200000 characters");
/** The lesson body's fields without the rule across them (forms `.omit()` from this, then add `readingNeedsContent`). */
export const lessonFieldsSchema = z.object({
  title: titleField,
  type: z.enum(LESSON_TYPES, { error: "Type is required" }),
  /** Required for a reading lesson; a quiz's is an optional introduction. */
  content: lessonContent.default(""),
  kind: z.enum(LESSON_KINDS).default("reading"),
  releaseAfterDays: releaseAfterDays.default(null),
  aiGenerated: z.boolean().default(false),
  order: z.number().int().optional(),
});
/**
 * A reading lesson needs its content; a quiz's content is an optional introduction. Checked even when other fields are
 * wrong (`when`), so a form names every missing field at once, as the product's messages do.
 */
export function readingNeedsContent<T extends z.ZodType<{ kind: string; content: string }>>(schema: T): T {
  return schema.refine((lesson) => lesson.kind !== "reading" || lesson.content.length > 0, {
    path: ["content"],
    message: "Content is required",
    when: (payload) =>
      typeof payload.value === "object" &&
      payload.value !== null &&
      payload.issues.every((issue) => issue.path?.[0] !== "content" && issue.path?.[0] !== "kind"),
  });
}
export const lessonBodySchema = readingNeedsContent(lessonFieldsSchema);
/** PATCH: only what was sent changes (no defaults, unlike the create body). A lesson's kind is fixed when it is made. */
export const updateLessonBodySchema = z.object({
  title: titleField.optional(),
  type: z.enum(LESSON_TYPES, { error: "Type is required" }).optional(),
  /** A reading lesson's content cannot become empty (checked on the server with its kind). */
  content: lessonContent.optional(),
  releaseAfterDays: releaseAfterDays.optional(),
  aiGenerated: z.boolean().optional(),
});
export type LessonInput = z.output<typeof lessonBodySchema>;
export type LessonChanges = z.output<typeof updateLessonBodySchema>;

/**
 * Where a grounded lesson's text comes from (issue 31): a passage of one of the owner's library files, or a message of
 * the chat the course was made from. Every entry is a passage the server retrieved for this lesson and gave to the
 * model; `n` is the number the lesson's text cites it by ([n]). A file deleted since keeps its entry, `removed`.
 */
export const lessonSourceSchema = z.object({
  n: z.number().int(),
  kind: z.enum(["file", "message"]),
  fileId: z.number().int().optional(),
  fileName: z.string().optional(),
  /** A PDF's 1-based page. */
  page: z.number().int().optional(),
  chatId: z.number().int().optional(),
  messageId: z.number().int().optional(),
  excerpt: z.string(),
  /** The file or message it came from was deleted: the lesson keeps its text and this entry says "source removed". */
  removed: z.boolean(),
});
export type LessonSource = z.infer<typeof lessonSourceSchema>;
export const SOURCE_REMOVED = "source removed";
/**
 * A lesson from material that no passage matched closely enough (the relevance floor, decision 067): written without a
 * source, and its page says so, in the owner's words or a reader's; in an outline's review, before it is written.
 */
export const WITHOUT_SOURCE_MESSAGES = {
  owner: "No passage of your material matched this lesson closely enough, so it was written without a source.",
  reader: "No passage of the author's material matched this lesson closely enough, so it was written without a source.",
  planned: "No passage of your material matched this lesson closely enough, so it will be written without a source.",
} as const;

/**
 * GET /api/lessons/{id}/sources/{n}: a source with its whole passage inside the text around it, as a reply's citation
 * (decision 058). The course owner's and admins' view; a reader (and a token without files:read) gets the excerpt as
 * its passage and nothing around it.
 */
export const lessonSourceDetailSchema = lessonSourceSchema.extend(passageInContextSchema.shape);
export type LessonSourceDetail = z.infer<typeof lessonSourceDetailSchema>;
export const lessonSourceParamsSchema = idParamsSchema.extend({ n: z.coerce.number().int().min(1).max(1000) });

export const lessonSchema = z.object({
  id: z.number().int(),
  moduleId: z.number().int(),
  courseId: z.number().int(),
  title: z.string(),
  type: z.enum(LESSON_TYPES),
  kind: z.enum(LESSON_KINDS),
  content: z.string(),
  order: z.number().int(),
  releaseAfterDays: z.number().int().nullable(),
  aiGenerated: z.boolean(),
  /** The passages a grounded lesson was written from ([] for a lesson written without sources). */
  sources: z.array(lessonSourceSchema),
  /** Written from the course's material, but no passage of it cleared the relevance floor (decision 067). */
  withoutSource: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Lesson = z.infer<typeof lessonSchema>;

/** POST /api/modules/{id}/move and /api/lessons/{id}/move: one step; order stays 1..n. */
export const moveBodySchema = z.object({ direction: z.enum(["up", "down"]) });
export type MoveInput = z.output<typeof moveBodySchema>;

/** GET /api/courses/{id}/outline: the detail and editor screens in one request. Lessons carry no content. */
export const outlineSchema = z.object({
  course: courseSchema,
  canEdit: z.boolean(),
  modules: z.array(
    moduleSchema.extend({
      lessons: z.array(
        lessonSchema.omit({ content: true, sources: true, withoutSource: true }).extend({
          /** A reading lesson marked done, a quiz passed. */
          completed: z.boolean(),
          /** Drip release (issue 32): not open yet for this reader (never for the owner or an admin). */
          locked: z.boolean(),
          /** When it opens (or opened) for this reader; null when it is open from the start. */
          opensAt: z.string().nullable(),
        }),
      ),
    }),
  ),
  /**
   * The signed-in reader's progress: reading lessons done and published quizzes passed, of every reading lesson and
   * published quiz; `complete` when all are, with the reader's certificate's code once issued.
   */
  progress: z.object({
    completed: z.number().int(),
    total: z.number().int(),
    nextLessonId: z.number().int().nullable(),
    complete: z.boolean(),
    certificateCode: z.string().nullable(),
  }),
  /** Owner and admin only: how many learners started (opened the course) and completed it. */
  learners: z.object({ started: z.number().int(), finished: z.number().int() }).nullable(),
});
export type CourseOutline = z.infer<typeof outlineSchema>;

/** POST /api/ai/course-description */
export const describeCourseBodySchema = z.object({
  title: promptTitleField("Please enter a title first."),
  hints: hintsField,
});

export const SOURCES_REQUIRED = "Choose files, a collection or a chat to build the course from.";
export const SOURCES_ONE_KIND = "Build a course from your files, from a chat or from a folder, one at a time.";
/**
 * What a course is made from (issue 31): library files and/or one collection of the caller's, or one chat (its branch
 * shown), or one folder (its chats). Every id is the caller's own, checked on the server (another's is a 404).
 */
export const courseSourcesSchema = z
  .object({
    fileIds: z.array(idField).max(50, "Pick at most 50 files").optional(),
    collectionId: idField.optional(),
    chatId: idField.optional(),
    folderId: idField.optional(),
  })
  .refine((s) => Boolean(s.fileIds?.length || s.collectionId || s.chatId || s.folderId), {
    message: SOURCES_REQUIRED,
  })
  .refine((s) => [s.fileIds?.length || s.collectionId ? 1 : 0, s.chatId ? 1 : 0, s.folderId ? 1 : 0].reduce((a, b) => a + b, 0) <= 1, {
    message: SOURCES_ONE_KIND,
  });
export type CourseSources = z.output<typeof courseSourcesSchema>;

/** A passage an outline's lesson plans to draw on (shown in the review; the server retrieves again when it writes). */
export const plannedSourceSchema = lessonSourceSchema.omit({ n: true, removed: true });
export type PlannedSource = z.infer<typeof plannedSourceSchema>;

/** A generated outline, reviewed and edited by the user before anything is created. */
export const outlineDraftSchema = z.object({
  modules: z
    .array(
      z.object({
        title: titleField,
        description: z.string().trim().max(1000).default(""),
        lessons: z
          .array(
            z.object({
              title: titleField,
              type: z.enum(LESSON_TYPES),
              summary: z.string().trim().max(1000).default(""),
              /** Grounded outlines: the passages this lesson draws on (display only: never trusted as a lesson's sources). */
              sources: z.array(plannedSourceSchema).max(12).default([]),
            }),
          )
          .min(1, "Each module needs at least one lesson")
          .max(30),
      }),
    )
    .min(1, "The outline needs at least one module")
    .max(60),
});
export type OutlineDraft = z.infer<typeof outlineDraftSchema>;

/** POST /api/courses/{id}/generate/outline */
export const outlineRequestSchema = z.object({
  hints: hintsField,
  moduleCount: z.number().int().min(1).max(12).default(4),
  /** Build it from the caller's own material (issue 31); absent: from the title, as before. */
  sources: courseSourcesSchema.optional(),
});

/** POST /api/courses/{id}/generate/approve: create the reviewed outline, then write the lessons. */
export const approveOutlineBodySchema = z.object({
  outline: outlineDraftSchema,
  hints: hintsField,
  /** The material the outline was proposed from: each lesson is written from passages retrieved from it again. */
  sources: courseSourcesSchema.optional(),
});

/**
 * POST /api/courses/generate/outline (New Course, "From my material"; decision 059): an outline drawn from the caller's
 * material before any course exists, so a refused step, a failure or a closed tab leaves nothing behind.
 */
export const materialOutlineRequestSchema = outlineRequestSchema.extend({
  title: longTitleField,
  sources: courseSourcesSchema,
});

/** POST /api/courses/generate/approve: the course is made (a private draft) with the approved outline and its run, at once. */
export const approveMaterialOutlineBodySchema = approveOutlineBodySchema.extend({
  title: longTitleField,
  sources: courseSourcesSchema,
});
export type ApproveMaterialOutlineInput = z.output<typeof approveMaterialOutlineBodySchema>;

export const generationRunSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  status: z.enum(["running", "stopped", "failed", "done"]),
  total: z.number().int(),
  done: z.number().int(),
  currentLessonId: z.number().int().nullable(),
  currentLessonTitle: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GenerationRun = z.infer<typeof generationRunSchema>;

export const lessonVersionSchema = z.object({
  id: z.number().int(),
  lessonId: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
});
export type LessonVersion = z.infer<typeof lessonVersionSchema>;

/**
 * Answer of POST /api/courses/{id}/generate/outline. With no usable AI platform the server
 * answers the product's template (3 modules x 3 reading lessons) and says so in `notice`.
 */
export const outlineProposalSchema = outlineDraftSchema.extend({
  source: z.enum(["ai", "template"]),
  notice: z.string().nullable(),
});
export type OutlineProposal = z.infer<typeof outlineProposalSchema>;

/** POST /api/modules/{id}/lesson-content: a lesson body for a lesson of this module, from its title and place (not saved). */
export const lessonContentBodySchema = z.object({
  title: promptTitleField("Please enter a title first"),
  type: z.enum(LESSON_TYPES).default("reading"),
  hints: hintsField,
});
export type LessonContentInput = z.output<typeof lessonContentBodySchema>;
export type DescribeCourseInput = z.output<typeof describeCourseBodySchema>;
export type OutlineRequestInput = z.output<typeof outlineRequestSchema>;
export type MaterialOutlineRequestInput = z.output<typeof materialOutlineRequestSchema>;
export type ApproveOutlineInput = z.output<typeof approveOutlineBodySchema>;

/** `/api/lessons/:id/versions/:versionId/restore` */
export const versionParamsSchema = idParamsSchema.extend({ versionId: idText });

/** POST and DELETE /api/lessons/{id}/complete */
export const completionSchema = z.object({ completed: z.boolean() });

const params = idParamsSchema;

/** Courses (course-routes.ts): the owner and admins edit; any signed-in user reads a public, published course. */
export const coursesApi = tokenScoped(
  "courses:read",
  {
    /** One tab of the list, newest first; the next page's cursor comes in X-Next-Cursor. */
    list: endpoint({
      method: "GET",
      path: "/api/courses",
      access: "user",
      query: courseListQuerySchema,
      response: z.array(courseSchema),
      kind: "paged",
    }),
    create: endpoint({
      method: "POST",
      path: "/api/courses",
      access: "user",
      body: createCourseBodySchema,
      response: courseSchema,
      status: 201,
    }),
    get: endpoint({ method: "GET", path: "/api/courses/:id", access: "user", params, response: courseSchema }),
    update: endpoint({
      method: "PATCH",
      path: "/api/courses/:id",
      access: "user",
      params,
      body: updateCourseBodySchema,
      response: courseSchema,
    }),
    remove: endpoint({ method: "DELETE", path: "/api/courses/:id", access: "user", params, response: z.null(), kind: "empty" }),
    outline: endpoint({ method: "GET", path: "/api/courses/:id/outline", access: "user", params, response: outlineSchema }),
    modules: endpoint({ method: "GET", path: "/api/courses/:id/modules", access: "user", params, response: z.array(moduleSchema) }),
    createModule: endpoint({
      method: "POST",
      path: "/api/courses/:id/modules",
      access: "user",
      params,
      body: moduleBodySchema,
      response: moduleSchema,
      status: 201,
    }),
    /** Multipart, field "file": PNG, JPEG or WebP up to 2 MB. */
    uploadCover: endpoint({ method: "POST", path: "/api/courses/:id/cover", access: "user", params, response: courseSchema, upload: true }),
    removeCover: endpoint({ method: "DELETE", path: "/api/courses/:id/cover", access: "user", params, response: courseSchema }),
  },
  (endpoint) => endpoint.method === "GET",
);

/** Modules and lessons (lesson-routes.ts): each takes its permission from its course. */
/** A tutor chat's reply when its reader may no longer read the lesson (issue 31): the course was made private meanwhile. */
export const TUTOR_LESSON_CLOSED =
  "You can no longer read this lesson, so its tutor cannot answer. The course may have been made private; ask its author, or start a new chat.";
/**
 * The tutor of every lesson of a course refuses (403) while the reader has an attempt in progress on one of its graded
 * quizzes, unless the quiz's owner let the tutor open during attempts (decision 067).
 */
export const tutorClosedForQuiz = (quizTitle: string) =>
  `The tutor is closed while you take the graded quiz "${quizTitle}". It opens again when you submit it.`;

export const lessonsApi = tokenScoped(
  "courses:read",
  {
    getModule: endpoint({ method: "GET", path: "/api/modules/:id", access: "user", params, response: moduleSchema }),
    updateModule: endpoint({
      method: "PATCH",
      path: "/api/modules/:id",
      access: "user",
      params,
      body: updateModuleBodySchema,
      response: moduleSchema,
    }),
    removeModule: endpoint({ method: "DELETE", path: "/api/modules/:id", access: "user", params, response: z.null(), kind: "empty" }),
    /** Answers the course's modules in their new order. */
    moveModule: endpoint({
      method: "POST",
      path: "/api/modules/:id/move",
      access: "user",
      params,
      body: moveBodySchema,
      response: z.array(moduleSchema),
    }),
    list: endpoint({ method: "GET", path: "/api/modules/:id/lessons", access: "user", params, response: z.array(lessonSchema) }),
    create: endpoint({
      method: "POST",
      path: "/api/modules/:id/lessons",
      access: "user",
      params,
      body: lessonBodySchema,
      response: lessonSchema,
      status: 201,
    }),
    get: endpoint({ method: "GET", path: "/api/lessons/:id", access: "user", params, response: lessonSchema }),
    update: endpoint({
      method: "PATCH",
      path: "/api/lessons/:id",
      access: "user",
      params,
      body: updateLessonBodySchema,
      response: lessonSchema,
    }),
    remove: endpoint({ method: "DELETE", path: "/api/lessons/:id", access: "user", params, response: z.null(), kind: "empty" }),
    /** Answers the module's lessons in their new order. */
    move: endpoint({
      method: "POST",
      path: "/api/lessons/:id/move",
      access: "user",
      params,
      body: moveBodySchema,
      response: z.array(lessonSchema),
    }),
    versions: endpoint({
      method: "GET",
      path: "/api/lessons/:id/versions",
      access: "user",
      params,
      response: z.array(lessonVersionSchema),
    }),
    restoreVersion: endpoint({
      method: "POST",
      path: "/api/lessons/:id/versions/:versionId/restore",
      access: "user",
      params: versionParamsSchema,
      response: lessonSchema,
    }),
    complete: endpoint({ method: "POST", path: "/api/lessons/:id/complete", access: "user", params, response: completionSchema }),
    uncomplete: endpoint({ method: "DELETE", path: "/api/lessons/:id/complete", access: "user", params, response: completionSchema }),
    /**
     * One source of a lesson, its whole passage inside the text around it (issue 31, decision 058). Anyone who may read
     * the lesson; the passage and `before`/`after` are the owner's and admins' only (a reader gets the excerpt as the
     * passage and "" around it: never more of the owner's file than the lesson's list shows).
     */
    source: endpoint({
      method: "GET",
      path: "/api/lessons/:id/sources/:n",
      access: "user",
      params: lessonSourceParamsSchema,
      response: lessonSourceDetailSchema,
    }),
    /**
     * The caller's tutor chat for a lesson (issue 31), made on the first call: a chat of the caller's own, bound to the
     * lesson's text and the course's sources; replies go through the chat routes. A lesson the caller may not read: 404.
     */
    tutor: endpoint({
      method: "POST",
      path: "/api/lessons/:id/tutor",
      access: "user",
      params,
      response: z.object({ chatId: z.number().int() }),
    }),
  },
  (endpoint) => endpoint.method === "GET",
);

/** AI help for course building (ai-routes.ts): Early Access or admin, owner or admin of the course. */
export const courseAiApi = {
  describe: endpoint({
    method: "POST",
    path: "/api/ai/course-description",
    access: "earlyAccess",
    feature: "courseGeneration",
    body: describeCourseBodySchema,
    response: z.object({ description: z.string() }),
  }),
  lessonContent: endpoint({
    method: "POST",
    path: "/api/modules/:id/lesson-content",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    body: lessonContentBodySchema,
    response: z.object({ content: z.string() }),
  }),
  /**
   * Writes a saved lesson again (issue 31): its old text kept as a version, as an edit keeps it; a grounded course's
   * lesson retrieves its passages again first, so a file the owner updated is used, and its sources are replaced.
   */
  regenerateLesson: endpoint({
    method: "POST",
    path: "/api/lessons/:id/regenerate",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    body: z.object({ hints: hintsField }),
    response: lessonSchema,
  }),
  proposeOutline: endpoint({
    method: "POST",
    path: "/api/courses/:id/generate/outline",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    body: outlineRequestSchema,
    response: outlineProposalSchema,
  }),
  proposeMaterialOutline: endpoint({
    method: "POST",
    path: "/api/courses/generate/outline",
    access: "earlyAccess",
    feature: "courseGeneration",
    body: materialOutlineRequestSchema,
    response: outlineProposalSchema,
  }),
  /** The course made with its approved outline; the answer is its run (`courseId` names the new course). */
  approveMaterialOutline: endpoint({
    method: "POST",
    path: "/api/courses/generate/approve",
    access: "earlyAccess",
    feature: "courseGeneration",
    body: approveMaterialOutlineBodySchema,
    response: generationRunSchema,
    status: 201,
  }),
  approveOutline: endpoint({
    method: "POST",
    path: "/api/courses/:id/generate/approve",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    body: approveOutlineBodySchema,
    response: generationRunSchema,
    status: 201,
  }),
  /** The latest run; none: 204 No Content (the web reads null). */
  generation: endpoint({
    method: "GET",
    path: "/api/courses/:id/generation",
    access: "user",
    params,
    response: generationRunSchema.nullable(),
    nullIs204: true,
  }),
  /** The latest run after the stop; none: 204 No Content. */
  stopGeneration: endpoint({
    method: "POST",
    path: "/api/courses/:id/generation/stop",
    access: "user",
    params,
    response: generationRunSchema.nullable(),
    nullIs204: true,
  }),
  resumeGeneration: endpoint({
    method: "POST",
    path: "/api/courses/:id/generation/resume",
    access: "earlyAccess",
    feature: "courseGeneration",
    params,
    response: generationRunSchema,
  }),
};
