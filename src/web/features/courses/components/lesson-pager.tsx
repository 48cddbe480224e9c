import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { lessonPath } from "../../../lib/paths.js";

type Neighbour = { id: number; title: string } | null;

function PagerButton({ courseId, lesson, direction }: { courseId: number; lesson: Neighbour; direction: "previous" | "next" }) {
  const label = direction === "previous" ? "Previous" : "Next";
  const icon = direction === "previous" ? <ChevronLeft aria-hidden="true" /> : <ChevronRight aria-hidden="true" />;
  if (!lesson) {
    return (
      <Button variant="outline" disabled>
        {direction === "previous" ? icon : null}
        {label}
        {direction === "next" ? icon : null}
      </Button>
    );
  }
  return (
    <Button asChild variant={direction === "next" ? "default" : "outline"} className="max-w-[48%]">
      <Link href={lessonPath(courseId, lesson.id)} title={lesson.title}>
        {direction === "previous" ? icon : null}
        {label}
        {direction === "next" ? icon : null}
      </Link>
    </Button>
  );
}

/** Previous and Next, across module boundaries (the course's reading order). */
export function LessonPager({ courseId, previous, next }: { courseId: number; previous: Neighbour; next: Neighbour }) {
  return (
    <nav aria-label="Lesson navigation" className="flex items-center justify-between gap-3 border-t pt-4">
      <PagerButton courseId={courseId} lesson={previous} direction="previous" />
      <PagerButton courseId={courseId} lesson={next} direction="next" />
    </nav>
  );
}
