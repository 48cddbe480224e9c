import { Check, Lock } from "lucide-react";
import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { useEarlyAccessPrice } from "../../../domain/payment-settings.js";

const features = ["Multiple AI models", "Course AI builder", "Training personalities", "Priority support"];

/** What is being bought, for which account (when known), and what it includes. */
export function OrderSummary({ account }: { account: { username: string; email: string | null } | null }) {
  const { price, currency, isLoading } = useEarlyAccessPrice();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Order summary</CardTitle>
        <CardDescription>Review your plan before paying.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-lg border p-4">
          <div className="grid gap-1">
            <p className="flex flex-wrap items-center gap-2 font-semibold whitespace-nowrap">
              Early Access <Badge>RECOMMENDED</Badge>
            </p>
            <p className="text-sm text-muted-foreground">One-time payment, no subscription</p>
          </div>
          <p className="whitespace-nowrap sm:text-right">
            <span className="block text-2xl font-bold">{isLoading ? "…" : price}</span>
            <span className="text-xs text-muted-foreground">{currency} · one-time</span>
          </p>
        </div>
        <dl className="grid gap-2 text-sm">
          {account ? (
            <div className="flex justify-between gap-4">
              <dt className="text-muted-foreground">Username</dt>
              <dd className="min-w-0 truncate font-medium">{account.username}</dd>
            </div>
          ) : null}
          {account?.email ? (
            <div className="flex justify-between gap-4">
              <dt className="text-muted-foreground">Email</dt>
              <dd className="min-w-0 truncate font-medium">{account.email}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4 border-t pt-2 text-base">
            <dt className="font-semibold">Total</dt>
            <dd className="font-bold">{isLoading ? "…" : price}</dd>
          </div>
        </dl>
        <div className="grid gap-2">
          <p className="text-sm font-medium">What you get</p>
          <ul className="grid gap-2">
            {features.map((feature) => (
              <li key={feature} className="flex items-center gap-2 text-sm">
                <Check className="size-4 text-primary" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
        </div>
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <Lock className="size-3.5" aria-hidden="true" />
          Payments are protected with 256-bit SSL encryption.
        </p>
      </CardContent>
    </Card>
  );
}
