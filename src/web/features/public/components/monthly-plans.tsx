import { Check, X } from "lucide-react";
import { Link } from "wouter";
import { SectionHeading } from "../../../components/public-site/section-heading.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { usePlanCallToAction } from "../../../domain/sign-up-link.js";
import { cn } from "../../../lib/cn.js";
import { paths } from "../../../lib/paths.js";

type Entitlement = { text: string; included: boolean };
type MonthlyPlan = {
  id: string;
  name: string;
  price: string;
  pitch: string;
  popular: boolean;
  entitlements: Entitlement[];
  /** "Start Free Trial" leads to registration (or whatever a reader can do instead, usePlanCallToAction); Contact Sales to /contact. */
  cta: "trial" | "contact";
};

const yes = (text: string): Entitlement => ({ text, included: true });
const no = (text: string): Entitlement => ({ text, included: false });

/** The plans as marketed, which follow early access (docs/product.md, Plans and limits). */
const plans: MonthlyPlan[] = [
  {
    id: "starter",
    name: "Starter",
    price: "$19",
    pitch: "For your first courses.",
    popular: false,
    entitlements: [
      yes("Up to 3 courses"),
      yes("100 students per course"),
      yes("Basic video scripts"),
      yes("Basic analytics"),
      yes("Email support"),
      no("AI video"),
      no("Email marketing"),
    ],
    cta: "trial",
  },
  {
    id: "professional",
    name: "Professional",
    price: "$79",
    pitch: "For creators growing an audience.",
    popular: true,
    entitlements: [
      yes("Unlimited courses"),
      yes("AI video with 50+ voices"),
      yes("Email marketing automation"),
      yes("1,000 students per course"),
      yes("Advanced analytics"),
      yes("Priority support"),
    ],
    cta: "trial",
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: "$199",
    pitch: "For teams and academies.",
    popular: false,
    entitlements: [
      yes("Everything in Professional"),
      yes("Unlimited students"),
      yes("White-label branding"),
      yes("Custom integrations"),
      yes("Dedicated account manager"),
      yes("24/7 phone support"),
      yes("Advanced and custom analytics"),
    ],
    cta: "contact",
  },
];

/** "Plans after early access": Starter, Professional (POPULAR) and Enterprise, monthly. */
export function MonthlyPlans() {
  const trial = usePlanCallToAction("Start Free Trial", paths.pricing);
  const actions = { trial, contact: { href: paths.contact, label: "Contact Sales" } };
  return (
    <section aria-labelledby="monthly-heading" className="bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6">
        <SectionHeading id="monthly-heading" eyebrow="Coming next" title="Plans after early access">
          When early access ends, these monthly plans follow. Each starts with a 14-day free trial, no credit card required.
        </SectionHeading>
        <ul className="grid gap-6 lg:grid-cols-3">
          {plans.map((plan) => (
            <li
              key={plan.id}
              aria-labelledby={`plan-${plan.id}`}
              className={cn(
                "flex flex-col gap-6 rounded-2xl border bg-card p-6 shadow-sm sm:p-8",
                plan.popular && "border-2 border-primary shadow-md lg:-my-2",
              )}
            >
              <div className="grid gap-2">
                <h3 id={`plan-${plan.id}`} className="flex flex-wrap items-center gap-2 text-xl font-semibold">
                  {plan.name}
                  {plan.popular ? <Badge>POPULAR</Badge> : null}
                </h3>
                <p>
                  <span className="text-4xl font-bold">{plan.price}</span> <span className="text-muted-foreground">per month</span>
                </p>
                <p className="text-sm text-muted-foreground">{plan.pitch}</p>
              </div>
              <ul className="grid gap-2">
                {plan.entitlements.map(({ text, included }) => (
                  <li key={text} className={cn("flex items-start gap-2 text-sm", !included && "text-muted-foreground")}>
                    {included ? (
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    ) : (
                      <X className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                    )}
                    <span>
                      {included ? null : <span className="sr-only">Not included: </span>}
                      {text}
                    </span>
                  </li>
                ))}
              </ul>
              <Button asChild size="lg" variant={plan.popular ? "default" : "outline"} className="mt-auto">
                <Link href={actions[plan.cta].href}>{actions[plan.cta].label}</Link>
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
