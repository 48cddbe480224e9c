import { Check, Sparkles } from "lucide-react";
import { Link } from "wouter";
import { hasEarlyAccess } from "../../../../shared/plan.js";
import { GetEarlyAccessButton } from "../../../components/get-early-access-button.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { useEarlyAccessPrice, useFreePlanPrice } from "../../../domain/payment-settings.js";
import { useSignedInUser } from "../../../domain/public-reads.js";
import { useSignUpLink } from "../../../domain/sign-up-link.js";
import { paths } from "../../../lib/paths.js";
import { EarlyAccessPrice } from "./price-text.js";

// The same perks as the plan step of registration.
const freePerks = ["Basic chat", "Limited model selection", "Standard support"];
const earlyAccessPerks = ["All premium AI models", "Unlimited course generation", "Custom training personalities", "Priority support"];

function Perks({ items }: { items: string[] }) {
  return (
    <ul className="grid gap-2">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2 text-sm">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          {item}
        </li>
      ))}
    </ul>
  );
}

/** Early Access's button: register (a visitor; Sign in while registration is closed), the checkout (a signed-in free user), or "Your plan". */
function EarlyAccessAction() {
  const user = useSignedInUser();
  const signUp = useSignUpLink("Get Early Access");
  if (!user)
    return (
      <Button asChild size="lg" className="mt-auto">
        <Link href={signUp.href}>
          <Sparkles aria-hidden="true" />
          {signUp.label}
        </Link>
      </Button>
    );
  if (hasEarlyAccess(user))
    return (
      <Button size="lg" variant="secondary" disabled className="mt-auto">
        <Check aria-hidden="true" />
        Your plan
      </Button>
    );
  return <GetEarlyAccessButton size="lg" className="mt-auto" />;
}

/** What can be bought today (docs/product.md, Plans and limits): Free, and the one-time Early Access at the live price. */
export function CurrentPlans() {
  const { currency } = useEarlyAccessPrice();
  const freePrice = useFreePlanPrice();
  const user = useSignedInUser();
  const freeSignUp = useSignUpLink("Get Started Free");
  return (
    <section aria-labelledby="available-heading" className="mx-auto grid max-w-4xl gap-8 px-4 pb-16 sm:px-6">
      <h2 id="available-heading" className="sr-only">
        Available now
      </h2>
      <div className="grid gap-6 md:grid-cols-2">
        <article aria-labelledby="plan-free" className="flex flex-col gap-6 rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <div className="grid gap-2">
            <h3 id="plan-free" className="text-xl font-semibold">
              Free
            </h3>
            <p>
              <span className="text-4xl font-bold">{freePrice}</span> <span className="text-muted-foreground">forever</span>
            </p>
            <p className="text-sm text-muted-foreground">Try the platform with no card and no time limit.</p>
          </div>
          <Perks items={freePerks} />
          <Button asChild variant="outline" size="lg" className="mt-auto">
            {user ? <Link href={paths.dashboard}>Go to Dashboard</Link> : <Link href={freeSignUp.href}>{freeSignUp.label}</Link>}
          </Button>
        </article>
        <article
          aria-labelledby="plan-early-access"
          className="relative flex flex-col gap-6 rounded-2xl border-2 border-primary bg-card p-6 shadow-md sm:p-8"
        >
          <div className="grid gap-2">
            <h3 id="plan-early-access" className="flex flex-wrap items-center gap-2 text-xl font-semibold">
              Early Access <Badge>RECOMMENDED</Badge>
            </h3>
            <p>
              <EarlyAccessPrice className="text-4xl font-bold" />{" "}
              <span className="text-muted-foreground">{currency} · one-time payment</span>
            </p>
            <p className="text-sm text-muted-foreground">Pay once, no subscription. Early Access payments are final: no refunds.</p>
          </div>
          <Perks items={earlyAccessPerks} />
          <EarlyAccessAction />
        </article>
      </div>
    </section>
  );
}
