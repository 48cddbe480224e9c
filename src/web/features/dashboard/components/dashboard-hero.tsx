import { GraduationCap, MessageSquare } from "lucide-react";
import { Link } from "wouter";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { COURSE_FEATURE_NAME } from "../../../lib/feature-names.js";
import { paths } from "../../../lib/paths.js";

function greeting(date = new Date()): string {
  const hour = date.getHours();
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

/**
 * Greeting with the two main actions. A first visit (`firstVisit` true: nothing made yet) is welcomed, with
 * where to start; a returning user is welcomed back. While that is unknown, a plain welcome.
 */
export function DashboardHero({ name, firstVisit }: { name: string; firstVisit: boolean | undefined }) {
  return (
    <section className="overflow-hidden rounded-2xl border bg-gradient-to-br from-primary/15 via-primary/5 to-transparent p-6 sm:p-10">
      <p className="text-sm font-medium text-primary">{greeting()}</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight break-words sm:text-4xl">
        {firstVisit === false ? `Welcome back, ${name}` : `Welcome, ${name}`}
      </h1>
      {firstVisit ? (
        <p className="mt-3 max-w-2xl text-muted-foreground">
          Getting started: start a chat and ask anything, or let the AI course builder turn what you know into a course.
        </p>
      ) : (
        <p className="mt-3 max-w-2xl text-muted-foreground">
          Ask any of your AI models a question, or turn what you know into a course with the AI course builder.
        </p>
      )}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          <Link href={paths.chat}>
            <MessageSquare aria-hidden="true" />
            Start a Chat
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link href={paths.courses}>
            <GraduationCap aria-hidden="true" />
            {COURSE_FEATURE_NAME}
            <Badge variant="beta">BETA</Badge>
          </Link>
        </Button>
      </div>
    </section>
  );
}
