import { CtaBand } from "../../../components/public-site/cta-band.js";
import { PublicLayout } from "../../../components/public-site/public-layout.js";
import { usePlanCallToAction } from "../../../domain/sign-up-link.js";
import { paths } from "../../../lib/paths.js";
import { Hero } from "../components/hero.js";
import { PlatformBlocks } from "../components/platform-blocks.js";
import { SupportingFeatures } from "../components/supporting-features.js";
import { Testimonials } from "../components/testimonials.js";
import { WorkflowSteps } from "../components/workflow-steps.js";

/** "/" for a visitor: hero, the 3-step workflow, features, hosting/marketing/security, testimonials, a closing call. */
export function LandingPage() {
  const start = usePlanCallToAction("Get Started Free", paths.home);
  return (
    <PublicLayout>
      <Hero />
      <WorkflowSteps />
      <SupportingFeatures />
      <PlatformBlocks />
      <Testimonials />
      <CtaBand title="Ready to build your first course?" primary={start} secondary={{ href: paths.pricing, label: "See Pricing" }}>
        Create a free account in a minute. Upgrade to Early Access whenever you are ready.
      </CtaBand>
    </PublicLayout>
  );
}
