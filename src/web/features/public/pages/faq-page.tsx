import { MessageCircle } from "lucide-react";
import { Link } from "wouter";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { Button } from "../../../components/ui/button.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { paths } from "../../../lib/paths.js";
import { FaqAccordion } from "../components/faq-accordion.js";
import { faqCategories } from "../components/faq-content.js";

/**
 * /faq (docs/product.md, Public pages): four categories, one question open at a time (and closable again); the questions are
 * buttons with aria-expanded, reachable with Tab and the arrow keys, toggled with Enter or Space.
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
        <FaqAccordion groups={categories} />
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
