import type { Quiz } from "../../../../shared/contracts/assessment.js";
import { Badge } from "../../../components/ui/badge.js";

/** Not published / Published vN / Changed since publishing: what learners see against the draft. */
export function QuizState({ quiz }: { quiz: Quiz }) {
  if (!quiz.published) return <Badge variant="outline">Not published</Badge>;
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Badge variant="new">Published v{quiz.published.version}</Badge>
      {quiz.changedSincePublish ? <Badge variant="beta">Changed since publishing</Badge> : null}
    </span>
  );
}
