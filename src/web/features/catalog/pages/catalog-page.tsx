import { Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import type { CatalogCourse } from "../../../../shared/contracts/catalog.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { Button } from "../../../components/ui/button.js";
import { Input } from "../../../components/ui/input.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { call } from "../../../lib/api-client.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { catalogReads, useCatalogRead } from "../api.js";
import { CourseCard } from "../components/course-card.js";

type Page = { items: CatalogCourse[]; nextCursor: string | null };

/** /catalog (issue 33): the public, published courses their owners list, for visitors and signed-in users alike; `?q=` searches. */
export function CatalogPage() {
  const q = (new URLSearchParams(useSearch()).get("q") ?? "").trim();
  const [, navigate] = useLocation();
  usePageTitle("Course catalog");
  const first = useCatalogRead(catalogReads.list, { query: q ? { q } : {} });
  const [more, setMore] = useState<{ q: string; items: CatalogCourse[]; nextCursor: string | null; loading: boolean } | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("q") ?? "").trim();
    navigate(typed ? `${paths.catalog}?q=${encodeURIComponent(typed)}` : paths.catalog);
  };

  const extra = more?.q === q ? more : null;
  const page: Page | null = first.kind === "found" ? first.value : null;
  const items = page ? [...page.items, ...(extra?.items ?? [])] : [];
  const nextCursor = extra ? extra.nextCursor : (page?.nextCursor ?? null);
  const loadMore = () => {
    if (!nextCursor) return;
    setMore({ q, items: extra?.items ?? [], nextCursor, loading: true });
    call(catalogReads.list, { query: q ? { q, cursor: nextCursor } : { cursor: nextCursor } })
      .then((next) => setMore({ q, items: [...(extra?.items ?? []), ...next.items], nextCursor: next.nextCursor, loading: false }))
      .catch(() => setMore({ q, items: extra?.items ?? [], nextCursor, loading: false }));
  };

  return (
    <PublicLayout>
      <section className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 sm:py-16">
        <div className="grid gap-3">
          <h1 className="text-4xl font-bold tracking-tight">Course catalog</h1>
          <p className="max-w-2xl text-lg text-muted-foreground">
            Courses written by our community. Read the first lesson of any of them, then start learning with a free account.
          </p>
        </div>
        <search>
          <form onSubmit={submit} className="flex max-w-xl gap-2" key={q}>
            <label htmlFor="catalog-search" className="sr-only">
              Search courses
            </label>
            <Input id="catalog-search" name="q" type="search" defaultValue={q} placeholder="Search courses" maxLength={200} />
            <Button type="submit">
              <Search aria-hidden="true" /> Search
            </Button>
          </form>
        </search>
        {first.kind === "loading" && (
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <Spinner /> Loading courses…
          </p>
        )}
        {(first.kind === "failed" || first.kind === "missing") && (
          <p className="rounded-xl border bg-muted/40 p-6" role="alert">
            The courses could not be loaded. Reload the page in a moment.
          </p>
        )}
        {page && items.length === 0 && (
          <div className="rounded-xl border bg-muted/40 p-8 text-center">
            {q ? (
              <>
                <h2 className="text-xl font-semibold">No courses match “{q}”</h2>
                <p className="mt-2 text-muted-foreground">Try other words, or look through every course.</p>
                <Button asChild variant="outline" className="mt-4">
                  <Link href={paths.catalog}>Show all courses</Link>
                </Button>
              </>
            ) : (
              <>
                <h2 className="text-xl font-semibold">No courses in the catalog yet</h2>
                <p className="mt-2 text-muted-foreground">Public courses appear here once their authors publish them.</p>
              </>
            )}
          </div>
        )}
        {items.length > 0 && (
          <>
            {q ? (
              <p className="text-sm text-muted-foreground" aria-live="polite">
                Courses matching “{q}”
              </p>
            ) : null}
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {items.map((course) => (
                <CourseCard key={course.id} course={course} />
              ))}
            </ul>
          </>
        )}
        {nextCursor ? (
          <div className="flex justify-center">
            <Button variant="outline" onClick={loadMore} disabled={extra?.loading}>
              {extra?.loading ? <Spinner /> : null} Show more courses
            </Button>
          </div>
        ) : null}
      </section>
    </PublicLayout>
  );
}
