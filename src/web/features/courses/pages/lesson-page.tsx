import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Redirect, useParams } from "wouter";
import { lessonOpensText } from "../../../../shared/contracts/assessment.js";
import { LESSON_NOT_FOUND } from "../../../../shared/contracts/courses.js";
import { CourseStateView } from "../../../components/course-state-view.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { isApiError } from "../../../lib/api-client.js";
import { loadFailure } from "../../../lib/load-failure.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { coursePath, lessonPath, paths } from "../../../lib/paths.js";
import { parseId } from "../../../lib/route-id.js";
import { lessonQuery, outlineQuery } from "../api.js";
import { openingDay } from "../components/course-content-list.js";
import { LessonReader } from "../components/lesson-reader.js";
import { LessonTutor } from "../components/lesson-tutor.js";
import { toastFailure } from "../course-toasts.js";
import type { QuizView } from "../quiz-view.js";

/** /courses/{courseId}/lessons/{lessonId}: the lesson reader; a quiz lesson shows `quizView` (given by the route table). */
export function LessonPage({ quizView }: { quizView?: QuizView }) {
  const params = useParams<{ courseId: string; lessonId: string }>();
  const courseId = parseId(params.courseId);
  const lessonId = parseId(params.lessonId);
  if (courseId === null || lessonId === null) return <Redirect to={paths.courses} replace />;
  return <LessonScreen courseId={courseId} lessonId={lessonId} quizView={quizView} />;
}

const DENIED = "You don't have permission to view this lesson.";

function LessonScreen({ courseId, lessonId, quizView }: { courseId: number; lessonId: number; quizView?: QuizView }) {
  const lesson = useQuery({
    ...lessonQuery(lessonId),
    // A lesson still being written fills in while it is open.
    refetchInterval: (query) => (query.state.data?.kind === "reading" && !query.state.data.content.trim() ? 3000 : false),
  });
  // The outline gives the module, the order and the neighbours; its failure alone is only logged.
  const outline = useQuery(outlineQuery(courseId));
  usePageTitle(lesson.data?.title, outline.data?.course.title, "Courses");
  const lessonFailure = loadFailure(lesson.error);
  const outlineFailure = loadFailure(outline.error);
  const back = coursePath(courseId);

  useEffect(() => {
    if (lessonFailure === "failed") toastFailure("loadLesson", lesson.error);
  }, [lessonFailure, lesson.error]);
  useEffect(() => {
    if (outline.error) console.warn("Could not load the course outline for the lesson page", outline.error);
  }, [outline.error]);

  const opensAt = isApiError(lesson.error) ? lesson.error.body.opensAt : undefined;
  if (opensAt) {
    return (
      <CourseStateView
        kind="waiting"
        title="This lesson is locked"
        message={lessonOpensText(openingDay(opensAt))}
        backHref={back}
        backLabel="Back to Course Overview"
      />
    );
  }
  if (lessonFailure === "forbidden" || outlineFailure === "forbidden") {
    return <CourseStateView kind="denied" title="Access Denied" message={DENIED} backHref={paths.courses} backLabel="Back to Courses" />;
  }
  if (outlineFailure === "missing") {
    return <CourseStateView kind="missing" title="Course not found" backHref={paths.courses} backLabel="Back to Courses" />;
  }
  if (lessonFailure === "missing") {
    return <CourseStateView kind="missing" title={LESSON_NOT_FOUND} backHref={back} backLabel="Back to Course Overview" />;
  }
  if (lessonFailure === "failed") {
    return (
      <LoadFailed
        className="mx-auto max-w-xl"
        title="Failed to load the lesson."
        error={lesson.error}
        retrying={lesson.isFetching}
        onRetry={() => void lesson.refetch()}
      />
    );
  }
  if (lesson.data && lesson.data.courseId !== courseId) return <Redirect to={lessonPath(lesson.data.courseId, lessonId)} replace />;
  if (!lesson.data || (!outline.data && !outline.error)) {
    return (
      <p role="status" className="py-10 text-center text-muted-foreground">
        Loading lesson...
      </p>
    );
  }
  return (
    <>
      <LessonReader lesson={lesson.data} outline={outline.data ?? null} quizView={quizView} />
      <LessonTutor lessonId={lesson.data.id} lessonTitle={lesson.data.title} />
    </>
  );
}
