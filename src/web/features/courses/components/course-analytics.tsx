import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState } from "react";
import { type Certificate, certificatesApi } from "../../../../shared/contracts/assessment.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { call, endpointKey, endpointUrl } from "../../../lib/api-client.js";
import { certificatePath } from "../../../lib/app-paths.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { openingDay } from "./course-content-list.js";

const percent = (value: number | null) => (value === null ? "—" : `${value}%`);

function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <Spinner label={label} />
      <span aria-hidden="true">{label}</span>
    </p>
  );
}

/** The owner's and admins' Analytics tab (issue 32): learners, each quiz's numbers, the CSV export and the certificates. */
export function CourseAnalytics({ courseId }: { courseId: number }) {
  const analytics = useQuery(endpointQuery(certificatesApi.analytics, { params: { id: courseId } }));
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1">
            <CardTitle>Analytics</CardTitle>
            <CardDescription>Learners who opened the course, and how they did in its quizzes.</CardDescription>
          </div>
          <Button asChild variant="outline" size="sm">
            <a href={endpointUrl(certificatesApi.analyticsExport, { params: { id: courseId } })} download>
              <Download aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        </CardHeader>
        <CardContent className="grid gap-5">
          {analytics.error ? (
            <LoadFailed
              title="Failed to load the analytics."
              error={analytics.error}
              retrying={analytics.isFetching}
              onRetry={() => void analytics.refetch()}
            />
          ) : !analytics.data ? (
            <Loading label="Loading analytics..." />
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3">
                <div className="rounded-lg border p-3">
                  <dt className="text-xs text-muted-foreground">Learners started</dt>
                  <dd className="text-2xl font-semibold tabular-nums">{analytics.data.learnersStarted}</dd>
                </div>
                <div className="rounded-lg border p-3">
                  <dt className="text-xs text-muted-foreground">Learners completed</dt>
                  <dd className="text-2xl font-semibold tabular-nums">{analytics.data.learnersCompleted}</dd>
                </div>
              </dl>
              {analytics.data.quizzes.length === 0 ? (
                <p className="text-sm text-muted-foreground">This course has no quizzes yet: add a quiz lesson to see scores here.</p>
              ) : (
                <ul className="grid gap-3">
                  {analytics.data.quizzes.map((quiz) => (
                    <li key={quiz.lessonId} className="grid gap-2 rounded-lg border p-3">
                      <h4 className="font-medium break-words">{quiz.title}</h4>
                      <dl className="grid grid-cols-3 gap-2 text-sm">
                        <div>
                          <dt className="text-xs text-muted-foreground">Attempts</dt>
                          <dd className="font-semibold tabular-nums">{quiz.attempts}</dd>
                        </div>
                        <div>
                          <dt className="text-xs text-muted-foreground">Average score</dt>
                          <dd className="font-semibold tabular-nums">{percent(quiz.averageScore)}</dd>
                        </div>
                        <div>
                          <dt className="text-xs text-muted-foreground">Pass rate</dt>
                          <dd className="font-semibold tabular-nums">{percent(quiz.passRate)}</dd>
                        </div>
                      </dl>
                      <p className="text-sm break-words text-muted-foreground">
                        {quiz.mostMissed
                          ? `Most missed: "${quiz.mostMissed.prompt}" (wrong in ${quiz.mostMissed.missed} ${quiz.mostMissed.missed === 1 ? "attempt" : "attempts"})`
                          : "No missed questions yet."}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </CardContent>
      </Card>
      <CertificateList courseId={courseId} />
    </div>
  );
}

/** The course's certificates, newest first, each with its page and Revoke (asked first). */
function CertificateList({ courseId }: { courseId: number }) {
  const client = useQueryClient();
  const list = useQuery(endpointQuery(certificatesApi.courseCertificates, { params: { id: courseId } }));
  const [confirming, setConfirming] = useState<Certificate | null>(null);
  const revoke = useMutation({
    mutationFn: (code: string) => call(certificatesApi.revoke, { params: { code } }),
    onSuccess: () => {
      setConfirming(null);
      void client.invalidateQueries({ queryKey: endpointKey(certificatesApi.courseCertificates, { params: { id: courseId } }) });
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Certificates</CardTitle>
        <CardDescription>Issued when a learner finishes every lesson and passes every quiz.</CardDescription>
      </CardHeader>
      <CardContent>
        {list.error ? (
          <LoadFailed
            title="Failed to load the certificates."
            error={list.error}
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        ) : !list.data ? (
          <Loading label="Loading certificates..." />
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No certificates yet: they appear here when learners complete the course.</p>
        ) : (
          <ul className="grid gap-2">
            {list.data.map((certificate) => (
              <li key={certificate.code} className="flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2">
                <div className="grid min-w-0 flex-1 basis-48">
                  <a
                    href={certificatePath(certificate.code)}
                    className="font-medium break-words text-primary underline-offset-4 hover:underline"
                  >
                    {certificate.learnerName}
                  </a>
                  <span className="text-xs text-muted-foreground">Issued on {openingDay(certificate.issuedAt)}</span>
                </div>
                {certificate.revoked ? (
                  <Badge variant="secondary">Revoked</Badge>
                ) : (
                  <Button variant="outline" size="sm" onClick={() => setConfirming(certificate)}>
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {revoke.error ? (
          <p role="alert" className="mt-3 text-sm text-destructive">
            {revoke.error.message} Try again.
          </p>
        ) : null}
      </CardContent>
      {confirming ? (
        <ConfirmDialog
          title="Revoke this certificate?"
          message={`${confirming.learnerName}'s certificate will show as revoked on its verification page. This cannot be undone.`}
          confirmLabel="Revoke"
          pendingLabel="Revoking..."
          pending={revoke.isPending}
          onConfirm={() => revoke.mutate(confirming.code)}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Card>
  );
}
