import { AlertTriangle, ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { paths } from "../../../lib/paths.js";

/** Payments are not set up yet: say so, and offer the Free plan or a way back. */
export function PaymentUnavailable({ onContinueFree, isPending }: { onContinueFree: () => void; isPending: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment</CardTitle>
        <CardDescription>Card payments are processed securely by Stripe.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <p>Stripe payment processing is not available. Please check your Stripe configuration.</p>
        </Alert>
        <p className="text-sm text-muted-foreground">
          You can create your account on the Free plan now and upgrade to Early Access once payments are available.
        </p>
        <Button onClick={onContinueFree} disabled={isPending} className="w-full">
          {isPending ? <ButtonSpinner /> : null}
          {isPending ? "Creating account..." : "Continue with the Free plan instead"}
        </Button>
        <Button variant="ghost" asChild className="w-full">
          <Link href={paths.register}>
            <ArrowLeft aria-hidden="true" />
            Back to registration
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
