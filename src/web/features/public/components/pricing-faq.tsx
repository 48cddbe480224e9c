import { Link } from "wouter";
import { paths } from "../../../lib/paths.js";
import { EarlyAccessPrice } from "./price-text.js";

/** The pricing page's six questions, with the marketing constants. */
export function PricingFaq() {
  const questions = [
    {
      q: "Is there a free trial?",
      a: (
        <>
          The monthly plans start with a 14-day free trial, and no credit card is required. Today you can also start on the Free plan, at no
          cost and with no time limit.
        </>
      ),
    },
    {
      q: "Is there a money-back guarantee?",
      a: (
        <>
          The monthly plans come with a 14-day money-back guarantee. Early Access is different: it is a one-time payment, and it is final,
          so it is not refunded.
        </>
      ),
    },
    {
      q: "How does Early Access work?",
      a: (
        <>
          You pay <EarlyAccessPrice className="font-medium text-foreground" /> once, with no subscription, and your account unlocks every
          premium feature. Early Access payments are final: no refunds.
        </>
      ),
    },
    {
      q: "What happens to my courses if I cancel?",
      a: <>Your courses stay accessible to your existing students for 30 days after you cancel a monthly plan.</>,
    },
    {
      q: "Can I change plans later?",
      a: <>Yes. Upgrades apply immediately; downgrades take effect at the start of your next billing cycle.</>,
    },
    {
      q: "How many AI voices are there?",
      a: <>AI video on the Professional and Enterprise plans comes with over 50 voices to choose from.</>,
    },
  ];
  return (
    <section aria-labelledby="pricing-faq-heading" className="bg-muted/40">
      <div className="mx-auto grid max-w-5xl gap-8 px-4 py-16 sm:px-6">
        <h2 id="pricing-faq-heading" className="text-center text-3xl font-bold tracking-tight">
          Pricing questions
        </h2>
        <dl className="grid gap-6 md:grid-cols-2">
          {questions.map(({ q, a }) => (
            <div key={q} className="grid content-start gap-2 rounded-xl border bg-card p-6 shadow-sm">
              <dt className="font-semibold">{q}</dt>
              <dd className="text-sm text-muted-foreground">{a}</dd>
            </div>
          ))}
        </dl>
        <p className="text-center text-sm text-muted-foreground">
          More answers in the{" "}
          <Link href={paths.faq} className="font-medium text-primary underline-offset-4 hover:underline">
            FAQ
          </Link>
          , or{" "}
          <Link href={paths.contact} className="font-medium text-primary underline-offset-4 hover:underline">
            contact us
          </Link>
          .
        </p>
      </div>
    </section>
  );
}
