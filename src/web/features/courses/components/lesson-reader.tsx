import type { CourseOutline, Lesson } from "../../../../shared/contracts/courses.js";
import { BackLink } from "../../../components/back-link.js";
import { Markdown } from "../../../components/markdown/markdown.js";
import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { coursePath } from "../../../lib/paths.js";
import type { QuizView } from "../quiz-view.js";
import { LESSON_TYPE_LABELS } from "../training-hints.js";
import { readingOrder, sortedModules } from "../use-course-outline.js";
import { CompleteToggle } from "./complete-toggle.js";
import { LessonPager } from "./lesson-pager.js";
import { useLessonSources } from "./lesson-sources.js";
import { ModuleLessonList } from "./module-lesson-list.js";

/**
 * The lesson, its place in the course, its Sources (a grounded lesson), Mark as complete, Previous / Next and the
 * module's lessons. A quiz lesson shows `quizView` instead of the text and Mark as complete (a quiz is done when passed).
 */
export function LessonReader({
  lesson,
  outline,
  quizView: QuizLesson,
}: {
  lesson: Lesson;
  outline: CourseOutline | null;
  quizView?: QuizView;
}) {
  const order = outline ? readingOrder(outline) : [];
  const index = order.findIndex((entry) => entry.lesson.id === lesson.id);
  const module = outline ? sortedModules(outline).find((m) => m.id === lesson.moduleId) : undefined;
  const entry = index >= 0 ? order[index] : undefined;
  const neighbour = (at: number) => {
    const found = order[at];
    return found ? { id: found.lesson.id, title: found.lesson.title } : null;
  };
  const written = lesson.content.trim().length > 0;
  const sources = useLessonSources(lesson, outline?.canEdit ?? false);
  return (
    <div className="grid grid-cols-1 gap-6">
      <BackLink href={coursePath(lesson.courseId)} label="Back to Course Overview" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <article className="grid min-w-0 grid-cols-1 content-start gap-6 lg:col-span-2">
          <header className="grid gap-2">
            {module ? (
              <p className="text-sm font-medium text-muted-foreground">
                Module {module.order}: {module.title}
              </p>
            ) : null}
            <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{lesson.title}</h1>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary">{LESSON_TYPE_LABELS[lesson.type]}</Badge>
              {lesson.aiGenerated ? <Badge variant="beta">AI generated</Badge> : null}
              {index >= 0 ? (
                <span className="text-xs text-muted-foreground">
                  Lesson {index + 1} of {order.length}
                </span>
              ) : null}
            </div>
          </header>
          {lesson.kind === "quiz" && QuizLesson ? (
            <QuizLesson lesson={lesson} canEdit={outline?.canEdit ?? false} />
          ) : (
            <>
              <Card>
                <CardContent className="pt-6">
                  {written ? (
                    <Markdown content={lesson.content} className="text-base" refs={sources.refs} />
                  ) : (
                    <p className="text-muted-foreground">This lesson is still being written.</p>
                  )}
                </CardContent>
              </Card>
              {sources.section}
              {sources.panel}
              <div className="flex flex-wrap items-center justify-between gap-3">
                <CompleteToggle courseId={lesson.courseId} lessonId={lesson.id} completed={entry?.lesson.completed ?? false} />
              </div>
            </>
          )}
          <LessonPager courseId={lesson.courseId} previous={neighbour(index - 1)} next={index >= 0 ? neighbour(index + 1) : null} />
        </article>
        {module ? (
          <aside className="lg:sticky lg:top-24 lg:self-start">
            <ModuleLessonList courseId={lesson.courseId} module={module} currentId={lesson.id} />
          </aside>
        ) : null}
      </div>
    </div>
  );
}
