import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Loader2, Lock, MessageCircleQuestion, SendHorizontal, Square, XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { type Citation, chatsApi, type Message } from "../../../../shared/contracts/chat.js";
import { lessonsApi } from "../../../../shared/contracts/courses.js";
import { Markdown } from "../../../components/markdown/markdown.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { Button } from "../../../components/ui/button.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { call, endpointKey, errorMessage, isApiError } from "../../../lib/api-client.js";
import { cn } from "../../../lib/cn.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { chatPath } from "../../../lib/paths.js";
import { openReplyStream, readReplyStream } from "../../../lib/reply-stream.js";

// The lesson's tutor (issue 31, decision 039): a compact chat beside the lesson (a panel from `lg`, a bottom sheet on
// phones) on the reader's own tutor chat, so the lesson stays in view. The full chat screen is one link away.

const MESSAGE_LIMIT = 100;
const messagesInput = (chatId: number) => ({ params: { id: chatId }, query: { limit: MESSAGE_LIMIT } });

/** "Ask about this lesson": the button, and the panel it opens. */
export function LessonTutor({ lessonId, lessonTitle }: { lessonId: number; lessonTitle: string }) {
  const [open, setOpen] = useState(false);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen} modal={false}>
      <DialogPrimitive.Trigger asChild>
        <Button className="fixed right-4 bottom-4 z-40 rounded-full shadow-lg sm:right-6 sm:bottom-6" size="lg">
          <MessageCircleQuestion aria-hidden="true" />
          Ask about this lesson
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-describedby={undefined}
          // Reading the lesson beside it does not close it.
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed inset-x-0 bottom-0 z-50 flex h-[85dvh] flex-col rounded-t-2xl border-t bg-background shadow-2xl outline-none lg:inset-y-0 lg:right-0 lg:left-auto lg:h-auto lg:w-[26rem] lg:rounded-none lg:border-t-0 lg:border-l"
        >
          <header className="flex items-start gap-2 border-b px-4 py-3">
            <div className="grid min-w-0 flex-1 gap-0.5">
              <DialogPrimitive.Title className="text-base font-semibold">Lesson tutor</DialogPrimitive.Title>
              <p className="truncate text-xs text-muted-foreground">Ask about “{lessonTitle}”</p>
            </div>
            <DialogPrimitive.Close className="rounded-sm p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <XIcon className="size-5" aria-hidden="true" />
              <span className="sr-only">Close the tutor</span>
            </DialogPrimitive.Close>
          </header>
          {open ? <TutorBody lessonId={lessonId} /> : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * The reader's tutor chat for the lesson, made on the first open (POST /api/lessons/{id}/tutor), asked again on each
 * open, since the server may close it meanwhile (a graded quiz in progress: 403 with its words, decision 067): then its
 * words stand where the conversation and the composer were, with a way to look again.
 */
function TutorBody({ lessonId }: { lessonId: number }) {
  const tutor = useQuery({
    queryKey: endpointKey(lessonsApi.tutor, { params: { id: lessonId } }),
    queryFn: ({ signal }) => call(lessonsApi.tutor, { params: { id: lessonId } }, { signal }),
    staleTime: 0,
    retry: false,
  });
  if (isApiError(tutor.error) && tutor.error.status === 403) {
    return <Closed text={tutor.error.message} checking={tutor.isFetching} onCheck={() => void tutor.refetch()} />;
  }
  if (tutor.isError)
    return <Failed text={`The tutor could not be opened: ${errorMessage(tutor.error)}`} onRetry={() => void tutor.refetch()} />;
  if (tutor.isPending) return <Waiting className="m-auto" text="Opening the tutor…" />;
  return <TutorChat chatId={tutor.data.chatId} lessonId={lessonId} />;
}

/** The tutor closed by the server (a graded quiz in progress): why, and Check again (after submitting elsewhere). */
function Closed({ text, checking, onCheck }: { text: string; checking: boolean; onCheck: () => void }) {
  return (
    <div role="status" className="m-auto grid max-w-xs justify-items-center gap-3 p-4 text-center text-sm">
      <Lock className="size-6 text-muted-foreground" aria-hidden="true" />
      <p>{text}</p>
      <Button variant="outline" size="sm" onClick={onCheck} disabled={checking}>
        {checking ? "Checking…" : "Check again"}
      </Button>
    </div>
  );
}

type Live = { question: string; text: string };

function TutorChat({ chatId, lessonId }: { chatId: number; lessonId: number }) {
  const client = useQueryClient();
  const messages = useQuery(endpointQuery(chatsApi.messages, messagesInput(chatId)));
  const [draft, setDraft] = useState("");
  const [live, setLive] = useState<Live | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const count = messages.data?.items.length ?? 0;
  useEffect(() => {
    if (count > 0 || live) end.current?.scrollIntoView({ block: "end" });
  }, [count, live]);

  async function ask(question: string) {
    const controller = new AbortController();
    abort.current = controller;
    setFailure(null);
    setLive({ question, text: "" });
    try {
      const response = await openReplyStream(chatsApi.reply, { params: { id: chatId }, body: { content: question } }, controller.signal);
      if (response) {
        await readReplyStream(response, (event) => {
          if (event.type === "delta") setLive((now) => (now ? { ...now, text: now.text + event.text } : now));
          if (event.type === "error") setFailure(`${event.message} Ask again, or open the full chat.`);
        });
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        setFailure(errorMessage(error));
        setDraft(question);
        // Refused: the tutor may have closed (a graded quiz started meanwhile); asking again shows why in its place.
        if (isApiError(error) && error.status === 403) {
          await client.invalidateQueries({ queryKey: endpointKey(lessonsApi.tutor, { params: { id: lessonId } }) });
        }
      }
    } finally {
      abort.current = null;
      await client.invalidateQueries({ queryKey: endpointKey(chatsApi.messages, { params: { id: chatId } }) });
      setLive(null);
    }
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const question = draft.trim();
    if (!question || live) return;
    setDraft("");
    void ask(question);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  async function stop() {
    await call(chatsApi.stop, { params: { id: chatId } }).catch(() => undefined);
  }

  const shown = messages.data?.items ?? [];
  return (
    <>
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-4 py-3" aria-live="polite">
        {messages.isPending ? <Waiting className="m-auto" text="Loading the conversation…" /> : null}
        {messages.isError ? (
          <Failed text={`The conversation could not be loaded: ${errorMessage(messages.error)}`} onRetry={() => void messages.refetch()} />
        ) : null}
        {messages.isSuccess && shown.length === 0 && !live ? (
          <p className="m-auto max-w-xs text-center text-sm text-muted-foreground">
            Ask anything about this lesson. The tutor answers from the lesson and the course's sources, and cites them.
          </p>
        ) : null}
        {shown.map((message) => (
          <TutorMessage key={message.id} message={message} />
        ))}
        {live ? (
          <>
            <UserBubble text={live.question} />
            <div className="grid gap-1" data-streaming>
              {live.text ? <Markdown content={live.text} className="text-sm" /> : null}
              <Waiting text={live.text ? "Writing…" : "Thinking…"} />
            </div>
          </>
        ) : null}
        {failure ? (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-2 text-sm text-destructive">
            {failure}
          </p>
        ) : null}
        <div ref={end} />
      </div>
      <form onSubmit={submit} className="grid gap-2 border-t p-3">
        <Textarea
          aria-label="Your question about this lesson"
          placeholder="Ask about this lesson…"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          className="min-h-12 resize-none"
        />
        <div className="flex items-center justify-between gap-2">
          <Link
            href={chatPath(chatId)}
            className="inline-flex items-center gap-1 text-xs text-muted-foreground underline-offset-4 hover:underline"
          >
            <ExternalLink className="size-3" aria-hidden="true" />
            Open as a full chat
          </Link>
          {live ? (
            <Button type="button" size="sm" variant="outline" onClick={() => void stop()}>
              <Square aria-hidden="true" />
              Stop
            </Button>
          ) : (
            <Button type="submit" size="sm" disabled={!draft.trim()}>
              <SendHorizontal aria-hidden="true" />
              Send
            </Button>
          )}
        </div>
      </form>
    </>
  );
}

/** A failed read: what failed, and Try again. */
function Failed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div role="alert" className="m-auto grid max-w-xs gap-3 p-4 text-center text-sm">
      <p>{text}</p>
      <Button variant="outline" size="sm" className="justify-self-center" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** A wait that says what it waits for. */
function Waiting({ text, className }: { text: string; className?: string }) {
  return (
    <p role="status" className={cn("inline-flex items-center gap-2 text-sm text-muted-foreground", className)}>
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      {text}
    </p>
  );
}

function UserBubble({ text }: { text: string }) {
  return (
    <p className="max-w-[85%] justify-self-end rounded-2xl bg-primary px-3 py-2 text-sm whitespace-pre-wrap break-words text-primary-foreground self-end">
      {text}
    </p>
  );
}

/** "Source 1: handbook.pdf, page 31". */
const sourceLabel = (c: Citation) => `Source ${c.n}: ${c.fileName}${c.page !== null ? `, page ${c.page}` : ""}`;

/** One message; a reply's `[n]` opens the cited passage (the excerpt the reply was given) under it. */
function TutorMessage({ message }: { message: Message }) {
  const [opened, setOpened] = useState<Citation | null>(null);
  const refs = useMemo<NumberedRefs | undefined>(() => {
    if (message.citations.length === 0) return undefined;
    const byNumber = new Map(message.citations.map((c) => [c.n, c]));
    return {
      numbers: new Set(byNumber.keys()),
      render: (n) => {
        const citation = byNumber.get(n);
        if (!citation) return `[${n}]`;
        return (
          <button
            key={`ref-${n}`}
            type="button"
            aria-label={sourceLabel(citation)}
            aria-expanded={opened?.n === n}
            onClick={() => setOpened((now) => (now?.n === n ? null : citation))}
            className="mx-0.5 inline-flex h-4 min-w-4 -translate-y-1 items-center justify-center rounded bg-primary/10 px-1 align-baseline text-[0.7rem] leading-none font-semibold text-primary outline-none hover:bg-primary/20 focus-visible:ring-2 focus-visible:ring-ring"
          >
            {n}
          </button>
        );
      },
    };
  }, [message.citations, opened]);
  if (message.role === "user") return <UserBubble text={message.content} />;
  return (
    <div className="grid gap-2">
      {message.status === "failed" ? (
        <p className="text-sm text-destructive">{message.error ?? "This reply failed."} Ask again.</p>
      ) : (
        <Markdown content={message.content} className="text-sm" refs={refs} />
      )}
      {opened ? (
        <figure className="grid gap-1 rounded-md border bg-muted/40 p-2 text-xs">
          <figcaption className="font-medium">{sourceLabel(opened)}</figcaption>
          <blockquote className="whitespace-pre-wrap break-words text-muted-foreground">{opened.excerpt}</blockquote>
        </figure>
      ) : null}
    </div>
  );
}
