import { CtaBand } from "../../../components/public-site/cta-band.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { usePlanCallToAction } from "../../../domain/sign-up-link.js";
import { paths } from "../../../lib/paths.js";
import { CurrentPlans } from "../components/current-plans.js";
import { MonthlyPlans } from "../components/monthly-plans.js";
import { PlanComparison } from "../components/plan-comparison.js";
import { PricingFaq } from "../components/pricing-faq.js";

/**
 * /pricing (docs/product.md, Plans and limits): first what is sold today, Free and the one-time Early Access
 * at the live price; then the monthly plans as the plans after early access, their comparison and FAQ.
 */
export function PricingPage() {
  const start = usePlanCallToAction("Get Started Free", paths.pricing);
  return (
    <PublicLayout>
      <section className="bg-gradient-to-b from-primary/10 to-transparent px-4 pt-16 pb-12 sm:px-6 lg:pt-20">
        <SectionHeading as="h1" eyebrow="Pricing" title="Simple pricing, no surprises">
          Start free, or unlock every premium feature with a one-time Early Access payment.
        </SectionHeading>
      </section>
      <CurrentPlans />
      <MonthlyPlans />
      <PlanComparison />
      <PricingFaq />
      <CtaBand title="Questions about a plan for your team?" primary={start} secondary={{ href: paths.contact, label: "Contact Sales" }}>
        Start free today, or tell us what you need and we will get back to you.
      </CtaBand>
    </PublicLayout>
  );
}
