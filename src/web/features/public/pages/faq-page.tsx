import { ChevronDown, MessageCircle } from "lucide-react";
import { Accordion } from "radix-ui";
import { Link } from "wouter";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { Button } from "../../../components/ui/button.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { paths } from "../../../lib/paths.js";
import { faqCategories } from "../components/faq-content.js";

/**
 * /faq (spec 002): four categories, one question open at a time (and closable again). Radix Accordion makes
 * the questions buttons with aria-expanded, reachable with Tab and the arrow keys, toggled with Enter or Space.
 */
export function FaqPage() {
  const categories = faqCategories(usePlatformName());
  return (
    <PublicLayout>
      <section className="bg-gradient-to-b from-primary/10 to-transparent px-4 py-16 sm:px-6 lg:py-20">
        <SectionHeading as="h1" eyebrow="FAQ" title="Frequently asked questions">
          Answers about accounts, Early Access, features and support.
        </SectionHeading>
      </section>
      <div className="mx-auto grid max-w-3xl gap-10 px-4 pb-16 sm:px-6">
        <Accordion.Root type="single" collapsible className="grid gap-10">
          {categories.map((category) => (
            <section key={category.id} aria-labelledby={`faq-${category.id}`} className="grid gap-3">
              <h2 id={`faq-${category.id}`} className="text-2xl font-bold tracking-tight">
                {category.title}
              </h2>
              <div className="divide-y rounded-xl border bg-card shadow-sm">
                {category.entries.map((entry) => (
                  <Accordion.Item key={entry.id} value={`${category.id}-${entry.id}`}>
                    <Accordion.Header>
                      <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 rounded-xl px-5 py-4 text-left font-medium outline-none transition-colors hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring">
                        {entry.question}
                        <ChevronDown
                          className="size-5 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-180"
                          aria-hidden="true"
                        />
                      </Accordion.Trigger>
                    </Accordion.Header>
                    <Accordion.Content forceMount className="px-5 pb-5 text-muted-foreground data-[state=closed]:hidden">
                      {entry.answer}
                    </Accordion.Content>
                  </Accordion.Item>
                ))}
              </div>
            </section>
          ))}
        </Accordion.Root>
        <div className="grid justify-items-center gap-3 rounded-2xl border bg-muted/40 p-8 text-center">
          <MessageCircle className="size-8 text-primary" aria-hidden="true" />
          <h2 className="text-xl font-semibold">Still have questions?</h2>
          <p className="text-muted-foreground">Send us a message and we will reply by email.</p>
          <Button asChild>
            <Link href={paths.contact}>Contact us</Link>
          </Button>
        </div>
      </div>
    </PublicLayout>
  );
}
