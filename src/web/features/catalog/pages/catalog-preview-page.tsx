import { Link, useParams } from "wouter";
import { Markdown } from "../../../components/markdown/markdown.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { useNamedSources } from "../../../components/sources/named-sources.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { catalogCoursePath } from "../../../lib/paths.js";
import { catalogReads, useCatalogRead } from "../api.js";
import { CatalogMissing } from "../components/catalog-missing.js";
import { lessonsLabel } from "../components/course-card.js";
import { StartLearning, StartLearningNote } from "../components/start-learning.js";

const NO_SOURCES: never[] = [];

/**
 * /catalog/:slug/preview (issue 33): the course's first lesson, for anyone, drawn with the lesson reader's Markdown (the
 * same sanitising); every other lesson needs an account.
 */
export function CatalogPreviewPage() {
  const { slug = "" } = useParams<{ slug: string }>();
  const read = useCatalogRead(catalogReads.preview, { params: { slug } });
  const lesson = read.kind === "found" ? read.value : null;
  usePageTitle(lesson?.title, lesson?.courseTitle);
  const sources = useNamedSources(lesson?.sources ?? NO_SOURCES);

  return (
    <PublicLayout>
      <div className="mx-auto grid max-w-3xl gap-8 px-4 py-10 sm:px-6 sm:py-14">
        <Link
          href={catalogCoursePath(slug)}
          className="w-fit text-sm font-medium text-muted-foreground hover:text-foreground hover:underline"
        >
          ← About this course
        </Link>
        {read.kind === "loading" && (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Loading the lesson…
          </p>
        )}
        {(read.kind === "missing" || read.kind === "failed") && <CatalogMissing failed={read.kind === "failed"} />}
        {lesson && (
          <article className="grid gap-6">
            <header className="grid gap-2">
              <p className="text-sm font-semibold tracking-wide text-primary uppercase">Free preview · {lesson.courseTitle}</p>
              <p className="text-sm text-muted-foreground">{lesson.moduleTitle}</p>
              <h1 className="text-3xl font-bold tracking-tight text-balance">{lesson.title}</h1>
            </header>
            <Markdown content={lesson.content} className="text-base" refs={sources.refs} />
            {sources.list}
            <aside className="grid gap-4 rounded-xl border bg-muted/40 p-6">
              <h2 className="text-xl font-semibold">Enjoyed this lesson?</h2>
              <p className="text-muted-foreground">
                The course has {lessonsLabel(lesson.lessonCount)}. Start learning to read them all and keep your progress.
              </p>
              <div className="grid justify-items-start gap-2">
                <StartLearning courseId={lesson.courseId} size="default" />
                <StartLearningNote courseId={lesson.courseId} />
              </div>
            </aside>
          </article>
        )}
      </div>
    </PublicLayout>
  );
}
