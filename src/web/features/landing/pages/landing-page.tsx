import { ArrowRight, BookOpen, Bot, UserRound } from "lucide-react";
import { Link } from "wouter";
import { Logo } from "../../../components/logo.js";
import { Button } from "../../../components/ui/button.js";
import { paths } from "../../../lib/paths.js";

const highlights = [
  { icon: Bot, title: "Every major AI model", text: "OpenAI, Anthropic Claude, Deepseek and Mistral in one chat." },
  { icon: BookOpen, title: "Courses with AI help", text: "Go from a topic to modules and lessons in minutes." },
  { icon: UserRound, title: "Training personalities", text: "Keep the assistants you shape and reuse them anywhere." },
] as const;

/** "/" for a signed-out visitor. */
export function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <nav aria-label="Account" className="flex items-center gap-2">
            <Button variant="ghost" asChild>
              <Link href={paths.login}>Sign in</Link>
            </Button>
            <Button asChild className="hidden sm:inline-flex">
              <Link href={paths.register}>Get Started</Link>
            </Button>
          </nav>
        </div>
      </header>
      <main className="flex-1">
        <section className="mx-auto grid max-w-6xl gap-6 px-4 py-16 text-center sm:px-6 lg:py-24">
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Chat with every AI model. Build courses with AI.
          </h1>
          <p className="mx-auto max-w-2xl text-lg text-muted-foreground">
            Lumora brings the leading AI models into one workspace, with a course builder and saved training personalities.
          </p>
          <div className="flex flex-col justify-center gap-3 sm:flex-row">
            <Button size="lg" asChild>
              <Link href={paths.register}>
                Create your free account
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link href={paths.login}>Sign in</Link>
            </Button>
          </div>
        </section>
        <section aria-label="Highlights" className="mx-auto grid max-w-6xl gap-4 px-4 pb-16 sm:px-6 md:grid-cols-3">
          {highlights.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-xl border bg-card p-6 shadow-sm">
              <span className="mb-3 flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h2 className="font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          ))}
        </section>
      </main>
      <footer className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:px-6">
          <p>© {new Date().getFullYear()} Lumora</p>
          <nav aria-label="Legal" className="flex gap-4">
            <Link href={paths.terms} className="hover:text-foreground">
              Terms of Service
            </Link>
            <Link href={paths.privacy} className="hover:text-foreground">
              Privacy Policy
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
