import { useQuery } from "@tanstack/react-query";
import { Download, FileText, MessageSquare } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "wouter";
import {
  type Lesson,
  type LessonSource,
  lessonsApi,
  SOURCE_REMOVED,
  WITHOUT_SOURCE_MESSAGES,
} from "../../../../shared/contracts/courses.js";
import { filesApi } from "../../../../shared/contracts/knowledge.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { Passage, SourcePanel, SourceRef } from "../../../components/sources/source-panel.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { endpointUrl, errorMessage } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { chatPath } from "../../../lib/paths.js";
import { sourceLabel } from "../source-label.js";

const iconOf = (source: LessonSource) => (source.kind === "message" ? MessageSquare : FileText);

/**
 * A source opened: the whole passage the lesson was written from, marked inside the text around it (GET
 * /api/lessons/{id}/sources/{n}; a reader gets the excerpt alone); the owner may open its file or chat.
 */
function SourceDetail({ lessonId, source, owner }: { lessonId: number; source: LessonSource; owner: boolean }) {
  const detail = useQuery(endpointQuery(lessonsApi.source, { params: { id: lessonId, n: source.n } }));
  const Icon = iconOf(source);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto">
      <div className="flex flex-col gap-0.5 text-sm">
        <p className="flex items-center gap-1.5 font-medium break-all">
          <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {sourceLabel(source)}
        </p>
        {detail.data?.headingPath ? <p className="text-muted-foreground">{detail.data.headingPath}</p> : null}
        {source.removed ? (
          <p className="text-muted-foreground">
            <Badge variant="outline">{SOURCE_REMOVED}</Badge> Its {source.kind === "message" ? "message" : "file"} was deleted; the lesson
            keeps the passage it was written from.
          </p>
        ) : null}
      </div>
      {detail.isPending ? (
        <Spinner label="Loading the passage" />
      ) : detail.isError ? (
        <>
          <p className="text-sm text-destructive dark:text-red-300">The passage could not be loaded: {errorMessage(detail.error)}</p>
          <Button variant="outline" size="sm" className="self-start" onClick={() => void detail.refetch()}>
            Try again
          </Button>
          <Passage before="" passage={source.excerpt} after="" />
        </>
      ) : (
        <Passage {...detail.data} />
      )}
      {owner && !source.removed && source.kind === "file" && source.fileId ? (
        <Button asChild variant="outline" size="sm" className="self-start">
          <a href={endpointUrl(filesApi.content, { params: { id: source.fileId } })} download={source.fileName}>
            <Download aria-hidden="true" />
            Download {source.fileName}
          </a>
        </Button>
      ) : null}
      {owner && !source.removed && source.kind === "message" && source.chatId ? (
        <Button asChild variant="outline" size="sm" className="self-start">
          <Link href={chatPath(source.chatId)}>
            <MessageSquare aria-hidden="true" />
            Open the chat
          </Link>
        </Button>
      ) : null}
    </div>
  );
}

/**
 * A grounded lesson's sources (issue 31): `refs` turns each `[n]` of its text that names a source into a button (any
 * other `[n]` stays text), `section` is the Sources list under the lesson (or, for a lesson from material that no
 * passage matched closely enough, the sentence that says so: decision 067), `panel` the side panel (a sheet on phones)
 * one opens. `owner`: the course's owner or an admin, who may also open the file or the chat.
 */
export function useLessonSources(lesson: Lesson, owner: boolean) {
  const [opened, setOpened] = useState<LessonSource | null>(null);
  const sources = lesson.sources;
  const refs = useMemo<NumberedRefs | undefined>(() => {
    if (sources.length === 0) return undefined;
    const byNumber = new Map(sources.map((source) => [source.n, source]));
    return {
      numbers: new Set(byNumber.keys()),
      render: (n) => {
        const source = byNumber.get(n);
        return source ? (
          <SourceRef key={`ref-${n}`} n={n} label={`Source ${n}: ${sourceLabel(source)}`} onOpen={() => setOpened(source)} />
        ) : (
          `[${n}]`
        );
      },
    };
  }, [sources]);

  const section =
    sources.length > 0 ? (
      <section aria-labelledby={`lesson-${lesson.id}-sources`} className="grid gap-3">
        <h2 id={`lesson-${lesson.id}-sources`} className="text-lg font-semibold">
          Sources
        </h2>
        <ol className="grid gap-2">
          {sources.map((source) => {
            const Icon = iconOf(source);
            return (
              <li key={source.n}>
                <button
                  type="button"
                  onClick={() => setOpened(source)}
                  className="grid w-full gap-1 rounded-lg border p-3 text-left outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-medium">
                    {/* The name is the card's own text after these words (WCAG 2.5.3: it holds what is seen). */}
                    <span className="sr-only">Open source </span>
                    <span className="text-muted-foreground tabular-nums">[{source.n}]</span>
                    <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="min-w-0 break-all">{sourceLabel(source)}</span>
                    {source.removed ? <Badge variant="outline">{SOURCE_REMOVED}</Badge> : null}
                  </span>
                  <span className="line-clamp-3 text-sm break-words text-muted-foreground">{source.excerpt}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </section>
    ) : lesson.withoutSource ? (
      <section aria-labelledby={`lesson-${lesson.id}-sources`} className="grid gap-2">
        <h2 id={`lesson-${lesson.id}-sources`} className="text-lg font-semibold">
          Sources
        </h2>
        <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
          {owner ? WITHOUT_SOURCE_MESSAGES.owner : WITHOUT_SOURCE_MESSAGES.reader}
        </p>
      </section>
    ) : null;

  const panel = (
    <SourcePanel title={opened ? `Source ${opened.n}` : null} onClose={() => setOpened(null)}>
      {opened ? <SourceDetail lessonId={lesson.id} source={opened} owner={owner} /> : null}
    </SourcePanel>
  );
  return { refs, section, panel };
}
