import { HelpCircle } from "lucide-react";
import { Link } from "wouter";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { paths } from "../../../lib/paths.js";
import { ContactDetails } from "../components/contact-details.js";
import { ContactForm } from "../components/contact-form.js";

/** /contact (docs/product.md, Public pages): the contact details, the message form, then the FAQ. */
export function ContactPage() {
  const name = usePlatformName();
  return (
    <PublicLayout>
      <section className="bg-gradient-to-b from-primary/10 to-transparent px-4 py-16 sm:px-6 lg:py-20">
        <SectionHeading as="h1" eyebrow="Contact" title="Contact us">
          Questions about {name}, your account, billing or a partnership? Send us a message and we will reply by email.
        </SectionHeading>
      </section>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 pb-16 sm:px-6 lg:grid-cols-[2fr_3fr]">
        <ContactDetails />
        <section aria-labelledby="contact-form-heading" className="relative rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <h2 id="contact-form-heading" className="mb-6 text-2xl font-bold tracking-tight">
            Send us a message
          </h2>
          <ContactForm />
        </section>
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <p className="flex flex-wrap items-center justify-center gap-2 rounded-xl border bg-muted/40 p-6 text-center">
          <HelpCircle className="size-5 text-primary" aria-hidden="true" />
          Looking for a quick answer?
          <Link href={paths.faq} className="font-medium text-primary underline-offset-4 hover:underline">
            Read the FAQ
          </Link>
        </p>
      </div>
    </PublicLayout>
  );
}
