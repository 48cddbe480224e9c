import { useQuery } from "@tanstack/react-query";
import { ListChecks, Play, RotateCcw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import type { Lesson } from "../../../../shared/contracts/courses.js";
import { Markdown } from "../../../components/markdown/markdown.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { isApiError } from "../../../lib/api-client.js";
import { quizEditPath } from "../../../lib/app-paths.js";
import { attemptsQuery, useStartAttempt } from "../api.js";
import { AttemptForm, attemptsLine } from "./attempt-form.js";
import { AttemptResult } from "./attempt-result.js";

/**
 * A quiz lesson as a learner takes it (drawn by the courses feature's lesson page, given it by the route table):
 * the introduction, Start / Resume, the open attempt, or the last result with Try again while attempts remain.
 */
export function QuizLesson({ lesson, canEdit }: { lesson: Lesson; canEdit: boolean }) {
  const attempts = useQuery(attemptsQuery(lesson.id));
  const start = useStartAttempt(lesson.id);
  const [taking, setTaking] = useState(false);
  const latest = attempts.data?.[0];
  const open = latest?.status === "open" ? latest : undefined;
  const unpublished = isApiError(attempts.error) && attempts.error.status === 409;
  const begin = () => start.mutate(undefined, { onSuccess: () => setTaking(true) });

  const intro = lesson.content.trim() ? (
    <Card>
      <CardContent className="pt-6">
        <Markdown content={lesson.content} className="text-base" />
      </CardContent>
    </Card>
  ) : null;
  const editLink = canEdit ? (
    <Button asChild variant="outline" size="sm" className="w-fit">
      <Link href={quizEditPath(lesson.courseId, lesson.id)}>
        <ListChecks aria-hidden="true" />
        Edit questions
      </Link>
    </Button>
  ) : null;

  let body: ReactNode;
  if (attempts.isPending) {
    body = (
      <p role="status" className="text-muted-foreground">
        Loading quiz...
      </p>
    );
  } else if (unpublished) {
    body = (
      <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
        This quiz is not published yet.{canEdit ? " Publish it in the quiz editor to let learners take it." : " Check back later."}
      </p>
    );
  } else if (attempts.error) {
    body = (
      <LoadFailed
        title="Failed to load the quiz."
        error={attempts.error}
        retrying={attempts.isFetching}
        onRetry={() => void attempts.refetch()}
      />
    );
  } else if (open && taking) {
    body = <AttemptForm key={open.id} attempt={open} />;
  } else {
    const left = latest && latest.attemptsAllowed !== null ? latest.attemptsAllowed - latest.attemptsUsed : null;
    const canRetry = latest?.status === "submitted" && (left === null || left > 0);
    body = (
      <div className="grid gap-4">
        {latest?.status === "submitted" ? <AttemptResult key={latest.id} attempt={latest} focus={taking} /> : null}
        <div className="flex flex-wrap items-center gap-3">
          {open || !latest || canRetry ? (
            <Button onClick={begin} disabled={start.isPending}>
              {start.isPending ? (
                <ButtonSpinner />
              ) : open ? (
                <Play aria-hidden="true" />
              ) : latest ? (
                <RotateCcw aria-hidden="true" />
              ) : (
                <Play aria-hidden="true" />
              )}
              {open ? "Resume quiz" : latest ? "Try again" : "Start quiz"}
            </Button>
          ) : null}
          <span className="text-sm text-muted-foreground">
            {open
              ? `${open.answers.length} of ${open.questions.length} answered · ${attemptsLine(open)}`
              : latest
                ? left === 0
                  ? `${attemptsLine(latest)} · no attempts left`
                  : attemptsLine(latest)
                : "Your answers are saved as you go: you can leave and come back."}
          </span>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      {intro}
      {editLink}
      {body}
    </div>
  );
}
