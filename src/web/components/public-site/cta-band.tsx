import { ArrowRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "../ui/button.js";

/** The closing call to action of a public page: a heading, a line, and two links. */
export function CtaBand({
  title,
  children,
  primary,
  secondary,
}: {
  title: string;
  children: ReactNode;
  primary: { href: string; label: string };
  secondary: { href: string; label: string };
}) {
  return (
    <section aria-labelledby="cta-heading" className="px-4 py-16 sm:px-6">
      <div className="mx-auto grid max-w-4xl justify-items-center gap-5 rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground shadow-sm sm:px-12">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-balance">
          {title}
        </h2>
        <p className="max-w-2xl text-lg text-pretty opacity-90">{children}</p>
        <div className="flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
          <Button size="lg" variant="secondary" asChild>
            <Link href={primary.href}>
              {primary.label}
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button
            size="lg"
            variant="outline"
            asChild
            className="border-primary-foreground/40 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground dark:bg-transparent"
          >
            <Link href={secondary.href}>{secondary.label}</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
