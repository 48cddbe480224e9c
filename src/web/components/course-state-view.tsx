import { AlertCircle, ArrowLeft, CalendarClock, ShieldAlert } from "lucide-react";
import { Link } from "wouter";
import { cn } from "../lib/cn.js";
import { Button } from "./ui/button.js";
import { Card, CardContent } from "./ui/card.js";

/**
 * A full-page answer instead of the screen: not found, restricted or denied (a red icon), or not yet (`waiting`, a lesson
 * that opens later: a calm one, nothing went wrong; decision 060), with the way back.
 */
export function CourseStateView({
  kind,
  title,
  message,
  backHref,
  backLabel,
}: {
  kind: "missing" | "denied" | "waiting";
  title: string;
  message?: string;
  backHref: string;
  backLabel: string;
}) {
  const Icon = kind === "waiting" ? CalendarClock : kind === "denied" ? ShieldAlert : AlertCircle;
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-center gap-2">
            <Icon className={cn("size-8 shrink-0", kind === "waiting" ? "text-primary" : "text-destructive")} aria-hidden="true" />
            <h1 className="text-2xl font-bold">{title}</h1>
          </div>
          {message ? <p className="text-sm text-muted-foreground">{message}</p> : null}
          <Button asChild variant="outline" className="w-fit">
            <Link href={backHref}>
              <ArrowLeft aria-hidden="true" />
              {backLabel}
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
