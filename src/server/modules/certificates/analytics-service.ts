import { count, eq, sql } from "drizzle-orm";
import { ANALYTICS_CSV_COLUMNS, type CourseAnalytics } from "../../../shared/contracts/assessment.js";
import type { Db } from "../../db/client.js";
import { courseEnrollments } from "../../db/schema/index.js";
import { csvLine } from "../../lib/csv.js";
import type { Who } from "../../lib/who.js";
import { lookedAfterCourse } from "./certificates-service.js";

type Options = { db: Db; who: Who; courseId: number };

const oneDecimal = (value: unknown) => (value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10);

/**
 * A course's numbers for its owner and admins, in three queries whatever the number of quizzes: learners started and
 * completed (course_enrollments), each quiz's submitted attempts, mean score and pass rate, and each quiz's most
 * missed question, counted from the stored results and named as the attempt's version worded it.
 */
async function readAnalytics({ db, who, courseId }: Options): Promise<CourseAnalytics & { courseTitle: string }> {
  const course = await lookedAfterCourse(db, who, courseId);
  const [learners, quizzes, missed] = await Promise.all([
    db
      .select({ started: count(), completed: count(courseEnrollments.completedAt) })
      .from(courseEnrollments)
      .where(eq(courseEnrollments.courseId, courseId)),
    db.execute(sql`
      select l.id as lesson_id, l.title,
             count(a.id)::int as attempts,
             avg(a.score)::float8 as average_score,
             (100.0 * count(a.id) filter (where a.passed) / nullif(count(a.id), 0))::float8 as pass_rate
      from lessons l
      join course_modules m on m.id = l.module_id
      left join quiz_attempts a on a.lesson_id = l.id and a.status = 'submitted'
      where l.course_id = ${courseId} and l.kind = 'quiz'
      group by l.id, l.title, m."order", m.id, l."order"
      order by m."order", m.id, l."order", l.id`),
    db.execute(sql`
      select distinct on (missed.lesson_id) missed.lesson_id, missed.question_id, missed.missed, missed.prompt
      from (
        select a.lesson_id, (r->>'questionId')::int as question_id, count(*)::int as missed,
               max(frozen.q->>'prompt') as prompt
        from quiz_attempts a
        join quiz_versions v on v.id = a.version_id
        cross join lateral jsonb_array_elements(coalesce(a.results, '[]'::jsonb)) r
        left join lateral (
          select q from jsonb_array_elements(v.questions) q where (q->>'id')::int = (r->>'questionId')::int limit 1
        ) frozen on true
        where a.course_id = ${courseId} and a.status = 'submitted' and (r->>'correct')::boolean = false
        group by a.lesson_id, (r->>'questionId')::int
      ) missed
      order by missed.lesson_id, missed.missed desc, missed.question_id`),
  ]);
  const mostMissed = new Map(
    (missed.rows as { lesson_id: number; question_id: number; missed: number; prompt: string | null }[]).map((row) => [
      Number(row.lesson_id),
      { questionId: Number(row.question_id), prompt: row.prompt ?? "", missed: Number(row.missed) },
    ]),
  );
  return {
    courseTitle: course.title,
    learnersStarted: Number(learners[0]?.started ?? 0),
    learnersCompleted: Number(learners[0]?.completed ?? 0),
    quizzes: (quizzes.rows as { lesson_id: number; title: string; attempts: number; average_score: unknown; pass_rate: unknown }[]).map(
      (row) => ({
        lessonId: Number(row.lesson_id),
        title: row.title,
        attempts: Number(row.attempts),
        averageScore: oneDecimal(row.average_score),
        passRate: oneDecimal(row.pass_rate),
        mostMissed: mostMissed.get(Number(row.lesson_id)) ?? null,
      }),
    ),
  };
}

export async function courseAnalytics(options: Options): Promise<CourseAnalytics> {
  const { courseTitle: _title, ...analytics } = await readAnalytics(options);
  return analytics;
}

const cell = (value: number | null) => (value === null ? "" : String(value));

/** The analytics as CSV (a byte order mark, then the header), every cell formula-safe (`csvLine`, as the activity export). */
export async function courseAnalyticsCsv(options: Options): Promise<{ csv: string; fileName: string }> {
  const analytics = await readAnalytics(options);
  const course = [analytics.courseTitle, String(analytics.learnersStarted), String(analytics.learnersCompleted)];
  const rows = analytics.quizzes.length
    ? analytics.quizzes.map((quiz) =>
        csvLine([
          ...course,
          quiz.title,
          String(quiz.attempts),
          cell(quiz.averageScore),
          cell(quiz.passRate),
          quiz.mostMissed?.prompt,
          cell(quiz.mostMissed?.missed ?? null),
        ]),
      )
    : [csvLine([...course, "", "", "", "", "", ""])];
  const fileName = `course-${options.courseId}-analytics-${new Date().toISOString().slice(0, 10)}.csv`;
  return { csv: `\uFEFF${csvLine([...ANALYTICS_CSV_COLUMNS])}${rows.join("")}`, fileName };
}
