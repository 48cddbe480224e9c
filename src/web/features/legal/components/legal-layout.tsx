import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { Button } from "../../../components/ui/button.js";
import { paths } from "../../../lib/paths.js";

/** Frame of a legal page, inside the public header and footer: Back to Sign In above, Return to Sign In below. */
export function LegalLayout({ title, effective, children }: { title: string; effective: string; children: ReactNode }) {
  return (
    <PublicLayout>
      <div className="bg-muted/40">
        <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-12">
          <div>
            <Button variant="ghost" asChild className="-ml-3">
              <Link href={paths.auth}>
                <ArrowLeft aria-hidden="true" />
                Back to Sign In
              </Link>
            </Button>
          </div>
          <article className="rounded-xl border bg-card p-6 shadow-sm sm:p-10">
            <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
            <p className="mt-2 text-sm text-muted-foreground">Effective date: {effective}</p>
            <div className="mt-8 grid gap-6 text-sm leading-relaxed [&_a]:font-medium [&_a]:text-primary [&_a]:underline-offset-4 hover:[&_a]:underline [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-foreground [&_p]:text-muted-foreground [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5 [&_ul]:text-muted-foreground">
              {children}
            </div>
          </article>
          <div className="flex justify-center">
            <Button asChild>
              <Link href={paths.auth}>Return to Sign In</Link>
            </Button>
          </div>
        </div>
      </div>
    </PublicLayout>
  );
}
