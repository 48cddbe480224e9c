import { useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { Link, Redirect, useParams } from "wouter";
import { LESSON_NOT_FOUND, lessonsApi } from "../../../../shared/contracts/courses.js";
import { BackLink } from "../../../components/back-link.js";
import { CourseStateView } from "../../../components/course-state-view.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { loadFailure } from "../../../lib/load-failure.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { courseEditPath, lessonPath, paths } from "../../../lib/paths.js";
import { parseId } from "../../../lib/route-id.js";
import { quizQuery } from "../api.js";
import { GenerateQuestionsButton } from "../components/generate-questions-dialog.js";
import { PublishPanel } from "../components/publish-panel.js";
import { QuestionList } from "../components/question-list.js";
import { QuizState } from "../components/quiz-state.js";

/** /courses/{courseId}/lessons/{lessonId}/quiz: the owner's quiz editor (questions, Generate quiz, Publish). */
export function QuizEditorPage() {
  const params = useParams<{ courseId: string; lessonId: string }>();
  const courseId = parseId(params.courseId);
  const lessonId = parseId(params.lessonId);
  if (courseId === null || lessonId === null) return <Redirect to={paths.courses} replace />;
  return <QuizEditorScreen courseId={courseId} lessonId={lessonId} />;
}

function QuizEditorScreen({ courseId, lessonId }: { courseId: number; lessonId: number }) {
  const lesson = useQuery(endpointQuery(lessonsApi.get, { params: { id: lessonId } }));
  const isQuiz = lesson.data?.kind === "quiz";
  const quiz = useQuery({ ...quizQuery(lessonId), enabled: isQuiz });
  usePageTitle(lesson.data ? `Quiz: ${lesson.data.title}` : "Quiz", "Courses");
  const back = courseEditPath(courseId);
  const failure = loadFailure(lesson.error) ?? loadFailure(quiz.error);

  if (failure === "forbidden") {
    return (
      <CourseStateView
        kind="denied"
        title="Access Denied"
        message="You don't have permission to edit this quiz."
        backHref={paths.courses}
        backLabel="Back to Courses"
      />
    );
  }
  if (failure === "missing")
    return <CourseStateView kind="missing" title={LESSON_NOT_FOUND} backHref={back} backLabel="Back to Edit Course" />;
  if (failure === "failed") {
    const failed = lesson.error ? lesson : quiz;
    return (
      <LoadFailed
        className="mx-auto max-w-xl"
        title="Failed to load the quiz."
        error={failed.error}
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  if (lesson.data && !isQuiz) {
    return (
      <CourseStateView
        kind="missing"
        title="Not a quiz"
        message="This lesson is a reading lesson. Add a quiz lesson to the module to write questions."
        backHref={back}
        backLabel="Back to Edit Course"
      />
    );
  }
  if (!lesson.data || !quiz.data) {
    return (
      <p role="status" className="py-10 text-center text-muted-foreground">
        Loading quiz...
      </p>
    );
  }
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <BackLink href={back} label="Back to Edit Course" />
          <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">Quiz: {lesson.data.title}</h1>
          <QuizState quiz={quiz.data} />
        </div>
        <Button asChild variant="outline">
          <Link href={lessonPath(courseId, lessonId)}>
            <Eye aria-hidden="true" />
            View as learner
          </Link>
        </Button>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader className="gap-3">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="grid gap-1">
                <CardTitle>Questions</CardTitle>
                <CardDescription>
                  {quiz.data.questions.length} {quiz.data.questions.length === 1 ? "question" : "questions"} in the draft.
                </CardDescription>
              </div>
              <GenerateQuestionsButton lessonId={lessonId} />
            </div>
          </CardHeader>
          <CardContent>
            <QuestionList lessonId={lessonId} questions={quiz.data.questions} />
          </CardContent>
        </Card>
        <aside className="grid content-start gap-6">
          <PublishPanel quiz={quiz.data} />
        </aside>
      </div>
    </div>
  );
}
