import { BookOpenText } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation, useParams } from "wouter";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { catalogCoursePath, catalogPreviewPath, paths } from "../../../lib/paths.js";
import { catalogReads, useCatalogRead } from "../api.js";
import { CatalogMissing } from "../components/catalog-missing.js";
import { CourseCover, lessonsLabel } from "../components/course-card.js";
import { StartLearning, StartLearningNote } from "../components/start-learning.js";

/** /catalog/:slug (issue 33): a catalogue course's landing page: what it is, who wrote it, its outline, the preview, Start learning. */
export function CatalogCoursePage() {
  const { slug = "" } = useParams<{ slug: string }>();
  const read = useCatalogRead(catalogReads.get, { params: { slug } });
  const course = read.kind === "found" ? read.value : null;
  const [, navigate] = useLocation();
  usePageTitle(course?.title, course ? "Course catalog" : undefined);
  // An address with an older title: the course's current one (the server answers visitors with a 301).
  useEffect(() => {
    if (course && course.slug !== slug) navigate(catalogCoursePath(course.slug), { replace: true });
  }, [course, slug, navigate]);

  return (
    <PublicLayout>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 sm:py-14">
        <Link href={paths.catalog} className="w-fit text-sm font-medium text-muted-foreground hover:text-foreground hover:underline">
          ← All courses
        </Link>
        {read.kind === "loading" && (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Loading the course…
          </p>
        )}
        {(read.kind === "missing" || read.kind === "failed") && <CatalogMissing failed={read.kind === "failed"} />}
        {course && (
          <article className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_360px] lg:items-start">
            <div className="grid gap-6">
              <div className="grid gap-3">
                <h1 className="text-4xl font-bold tracking-tight text-balance">{course.title}</h1>
                <p className="text-muted-foreground">
                  By <span className="font-medium text-foreground">{course.ownerName}</span> · {lessonsLabel(course.lessonCount)}
                </p>
              </div>
              {course.description ? <p className="text-lg whitespace-pre-line">{course.description}</p> : null}
              <div className="flex flex-wrap items-center gap-3">
                <StartLearning courseId={course.id} />
                {course.hasPreview ? (
                  <Button asChild variant="outline" size="lg">
                    <Link href={catalogPreviewPath(course.slug)}>
                      <BookOpenText aria-hidden="true" /> Read the first lesson
                    </Link>
                  </Button>
                ) : null}
              </div>
              <StartLearningNote courseId={course.id} />
              <section aria-labelledby="outline-heading" className="grid gap-4">
                <h2 id="outline-heading" className="text-2xl font-semibold">
                  Course outline
                </h2>
                {course.modules.length === 0 ? (
                  <p className="text-muted-foreground">This course has no modules yet.</p>
                ) : (
                  <ol className="grid gap-3">
                    {course.modules.map((module, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the outline is read once and never reordered on the page
                      <li key={`${index}-${module.title}`} className="rounded-xl border bg-card p-4">
                        <h3 className="font-semibold">
                          <span className="text-muted-foreground">Module {index + 1}:</span> {module.title}
                        </h3>
                        {module.lessons.length === 0 ? (
                          <p className="mt-2 text-sm text-muted-foreground">No lessons yet.</p>
                        ) : (
                          <ol className="mt-2 grid list-decimal gap-1 pl-6 text-sm">
                            {module.lessons.map((lesson, at) => (
                              // biome-ignore lint/suspicious/noArrayIndexKey: as above
                              <li key={`${at}-${lesson.title}`}>{lesson.title}</li>
                            ))}
                          </ol>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            </div>
            <CourseCover cover={course.cover} className="order-first rounded-xl border lg:sticky lg:top-24 lg:order-none" />
          </article>
        )}
      </div>
    </PublicLayout>
  );
}
