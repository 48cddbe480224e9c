import { Check, Minus } from "lucide-react";

type Cell = string | boolean;
const rows: { feature: string; cells: [Cell, Cell, Cell] }[] = [
  { feature: "Courses", cells: ["Up to 3", "Unlimited", "Unlimited"] },
  { feature: "Students per course", cells: ["100", "1,000", "Unlimited"] },
  { feature: "Video", cells: ["Basic video scripts", "AI video, 50+ voices", "AI video, 50+ voices"] },
  { feature: "Email marketing automation", cells: [false, true, true] },
  { feature: "Analytics", cells: ["Basic", "Advanced", "Advanced and custom"] },
  { feature: "White-label branding", cells: [false, false, true] },
  { feature: "Custom integrations", cells: [false, false, true] },
  { feature: "Dedicated account manager", cells: [false, false, true] },
  { feature: "Support", cells: ["Email", "Priority", "24/7 phone"] },
];

const PLANS = ["Starter", "Professional", "Enterprise"] as const;

function CellValue({ value }: { value: Cell }) {
  if (value === true)
    return (
      <>
        <Check className="mx-auto size-5 text-primary" aria-hidden="true" />
        <span className="sr-only">Included</span>
      </>
    );
  if (value === false)
    return (
      <>
        <Minus className="mx-auto size-5 text-muted-foreground" aria-hidden="true" />
        <span className="sr-only">Not included</span>
      </>
    );
  return <>{value}</>;
}

/** The plans side by side. On phones the table scrolls inside its own box; the page itself never scrolls sideways. */
export function PlanComparison() {
  return (
    <section aria-labelledby="compare-heading" className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-16 sm:px-6">
      <h2 id="compare-heading" className="text-center text-3xl font-bold tracking-tight">
        Compare the plans
      </h2>
      <p className="-mt-3 text-center text-sm text-muted-foreground sm:hidden">Swipe the table sideways to see every plan.</p>
      <section
        aria-labelledby="compare-heading"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable from the keyboard.
        tabIndex={0}
        className="relative min-w-0 overflow-x-auto rounded-xl border bg-card shadow-sm"
      >
        <table className="w-full min-w-[36rem] text-sm">
          <thead>
            <tr className="border-b bg-muted">
              <th scope="col" className="sticky left-0 bg-muted px-4 py-3 text-left font-semibold">
                Feature
              </th>
              {PLANS.map((plan) => (
                <th key={plan} scope="col" className="px-4 py-3 text-center font-semibold">
                  {plan}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ feature, cells }) => (
              <tr key={feature} className="border-b last:border-b-0">
                <th scope="row" className="sticky left-0 bg-card px-4 py-3 text-left font-medium">
                  {feature}
                </th>
                {cells.map((value, index) => (
                  <td key={PLANS[index]} className="px-4 py-3 text-center text-muted-foreground">
                    <CellValue value={value} />
                  </td>
                ))}
              </tr>
            ))}
            <tr className="bg-muted">
              <th scope="row" className="sticky left-0 bg-muted px-4 py-3 text-left font-semibold">
                Price
              </th>
              {["$19/month", "$79/month", "$199/month"].map((price) => (
                <td key={price} className="px-4 py-3 text-center font-semibold">
                  {price}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </section>
    </section>
  );
}
