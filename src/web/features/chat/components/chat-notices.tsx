import { GraduationCap, Info, TriangleAlert } from "lucide-react";
import { Link } from "wouter";
import type { TutorLessonRef } from "../../../../shared/contracts/chat.js";
import { lessonPath, paths } from "../../../lib/paths.js";

/**
 * No usable platform: say so plainly, and how it gets fixed. `turnedOff`: the platforms that have a key but
 * were turned off (known to an admin, who can turn them back on).
 */
export function NoPlatformNotice({ isAdmin, turnedOff = [] }: { isAdmin: boolean; turnedOff?: readonly string[] }) {
  if (turnedOff.length > 0) {
    const names = turnedOff.length === 1 ? turnedOff[0] : `${turnedOff.slice(0, -1).join(", ")} and ${turnedOff.at(-1)}`;
    return (
      <div role="status" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-3 text-sm sm:px-6">
        <div className="flex w-full items-start gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-900 dark:text-amber-200">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            {names} {turnedOff.length === 1 ? "is" : "are"} turned off by an administrator.{" "}
            {isAdmin ? (
              <Link href={paths.adminAiPlatforms} className="font-medium underline underline-offset-2">
                Turn it on in AI Chat Settings
              </Link>
            ) : (
              "Ask an administrator to turn it back on."
            )}
          </p>
        </div>
      </div>
    );
  }
  return (
    <div role="status" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-3 text-sm sm:px-6">
      <div className="flex w-full items-start gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-900 dark:text-amber-200">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          {isAdmin ? "No AI platform is set up yet." : "No AI platform is available yet."}{" "}
          {isAdmin ? (
            <Link href={paths.adminAiPlatforms} className="font-medium underline underline-offset-2">
              Set up an AI platform
            </Link>
          ) : (
            "Ask an administrator to set one up or turn one on."
          )}
        </p>
      </div>
    </div>
  );
}

/** Save Chat History is off: this chat goes when the user leaves it. */
export function TemporaryChatNote() {
  return (
    <p className="flex items-center justify-center gap-1.5 border-b bg-muted/50 px-3 py-1 text-center text-xs text-muted-foreground">
      <Info className="size-3.5 shrink-0" aria-hidden="true" />
      Temporary chat: not saved to history
    </p>
  );
}

/** A lesson's tutor chat (issue 31): which lesson it is about, and the way back to it. */
export function TutorLessonNote({ lesson }: { lesson: TutorLessonRef }) {
  return (
    <p className="flex items-center justify-center gap-1.5 border-b bg-primary/5 px-3 py-1.5 text-center text-xs text-muted-foreground">
      <GraduationCap className="size-3.5 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">Tutor for {lesson.title}</span>
      <Link href={lessonPath(lesson.courseId, lesson.id)} className="shrink-0 font-medium text-primary underline-offset-4 hover:underline">
        Back to the lesson
      </Link>
    </p>
  );
}
