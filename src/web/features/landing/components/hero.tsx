import { ArrowRight, BookOpen, Check, Loader2, MessagesSquare, Sparkles } from "lucide-react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { useSignUpLink } from "../../../domain/sign-up-link.js";
import { paths } from "../../../lib/paths.js";

const modules = [
  { title: "Module 1: Light and exposure", done: true },
  { title: "Module 2: Composition that works", done: true },
  { title: "Module 3: Editing your photos", done: false },
] as const;

/** A drawn preview of the product (text and icons, fixed size: nothing loads late or shifts the page). */
function ProductPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md select-none">
      <div className="rounded-2xl border bg-card p-5 shadow-lg">
        <div className="flex items-center gap-2 text-sm font-semibold">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary/15 text-primary">
            <BookOpen className="size-4" />
          </span>
          Photography for Beginners
        </div>
        <p className="mt-1 text-xs text-muted-foreground">Niche: busy parents with a new camera · 3 modules · 9 lessons</p>
        <ul className="mt-4 grid gap-2">
          {modules.map((module) => (
            <li key={module.title} className="flex items-center gap-2 rounded-lg border bg-background px-3 py-2 text-sm">
              {module.done ? (
                <Check className="size-4 shrink-0 text-success" />
              ) : (
                <Loader2 className="size-4 shrink-0 text-primary motion-safe:animate-spin" />
              )}
              <span className="truncate">{module.title}</span>
            </li>
          ))}
        </ul>
        <div className="mt-4 h-2 overflow-hidden rounded-full bg-muted">
          <div className="h-full w-2/3 rounded-full bg-primary" />
        </div>
        <p className="mt-2 text-xs text-muted-foreground">Writing lesson 7 of 9…</p>
      </div>
      <div className="mt-4 ml-auto w-[85%] rounded-2xl border bg-card p-4 shadow-md sm:-mt-6 sm:mr-[-1rem]">
        <div className="flex items-center gap-2 text-xs font-medium text-muted-foreground">
          <MessagesSquare className="size-4 text-primary" />
          Claude · Writing Coach personality
        </div>
        <p className="mt-2 text-sm">Here is a friendlier intro for Module 3, in your usual tone…</p>
      </div>
    </div>
  );
}

/** The landing hero: what the product is, with Get Started and the features page. */
export function Hero() {
  const name = usePlatformName();
  const start = useSignUpLink("Get Started Free");
  const registrationOpen = start.href === paths.register;
  return (
    <section aria-labelledby="hero-heading" className="bg-gradient-to-b from-primary/10 via-primary/5 to-transparent">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:py-24">
        <div className="grid justify-items-center gap-6 text-center lg:justify-items-start lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-sm font-medium">
            <Sparkles className="size-4 text-primary" aria-hidden="true" />
            Early Access is open
          </p>
          <h1 id="hero-heading" className="text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Create courses with AI. Chat with every leading model.
          </h1>
          <p className="max-w-2xl text-lg text-pretty text-muted-foreground">
            {name} takes you from a topic to a finished course in minutes, and puts OpenAI, Anthropic Claude, Deepseek and Mistral in one
            chat, with Training Personalities you shape once and reuse everywhere.
          </p>
          <div className="flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row lg:justify-start">
            <Button size="lg" asChild>
              <Link href={start.href}>
                {start.label}
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link href={paths.features}>Explore Features</Link>
            </Button>
          </div>
          {registrationOpen ? <p className="text-sm text-muted-foreground">Start on the free plan: no credit card needed.</p> : null}
        </div>
        <ProductPreview />
      </div>
    </section>
  );
}
