import { lessonPath, paths } from "./paths.js";

// Deep links of the signed-in app that the public pages never use. Apart from lib/paths.ts, whose module is shared with
// the visitors' small app: every byte there counts against /auth's 100 KiB budget (issue 15), so links only the app
// follows live here.

/** A quiz lesson's questions and publish settings (the owner's; features/quizzes, decision 040). */
export const quizEditRoute = "/courses/:courseId/lessons/:lessonId/quiz";

/** A quiz lesson's editor: its questions and publish settings. */
export function quizEditPath(courseId: number, lessonId: number): string {
  return `${lessonPath(courseId, lessonId)}/quiz`;
}

/** New Course "From my material" (the courses page opens it), made from a chat or a folder when one is named. */
export function newCourseFromMaterialPath(from?: { chatId: number } | { folderId: number }): string {
  const base = `${paths.courses}?new=material`;
  if (!from) return base;
  return "chatId" in from ? `${base}&chatId=${from.chatId}` : `${base}&folderId=${from.folderId}`;
}

/** A certificate's public verification page. */
export function certificatePath(code: string): string {
  return `/certificates/${encodeURIComponent(code)}`;
}

/** A shared chat's read-only page (issue 33): anyone with the link (`shared/share-page.ts` for the server). */
export const shareRoute = "/share/:token";

/** Every chat share link, for admins (issue 33). */
export const adminSharesPath = "/admin/shares";

/** The MCP servers an admin registered (issue 34). */
export const adminMcpServersPath = "/admin/mcp-servers";

/** Every personal API token, for admins (issue 35). */
export const adminApiTokensPath = "/admin/api-tokens";
