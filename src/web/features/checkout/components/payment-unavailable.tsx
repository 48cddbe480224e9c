import { AlertTriangle, ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { PAYMENTS_UNAVAILABLE } from "../../../../shared/contracts/payments.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { paths } from "../../../lib/paths.js";

/** The Register tab with Free chosen; the username, name and email come back from the stored display data. */
const FREE_REGISTRATION = `${paths.register}&plan=free`;

/**
 * Payments are not set up yet (503). A visitor registering can go back and create the account on the Free
 * plan (the password is typed again: it is never kept in the browser); a signed-in user goes back.
 */
export function PaymentUnavailable({ mode, backTo }: { mode: "register" | "upgrade"; backTo: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment</CardTitle>
        <CardDescription>Card payments are processed securely by Stripe.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Alert variant="destructive">
          <AlertTriangle aria-hidden="true" />
          <p>{PAYMENTS_UNAVAILABLE}</p>
        </Alert>
        {mode === "register" ? (
          <>
            <p className="text-sm text-muted-foreground">
              You can create your account on the Free plan now and upgrade to Early Access once payments are available.
            </p>
            <Button asChild className="w-full">
              <Link href={FREE_REGISTRATION}>Continue with the Free plan instead</Link>
            </Button>
            <Button variant="ghost" asChild className="w-full">
              <Link href={paths.register}>
                <ArrowLeft aria-hidden="true" />
                Back to registration
              </Link>
            </Button>
          </>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Your account stays on the Free plan. Please check back once payments are available.
            </p>
            <Button variant="outline" asChild className="w-full">
              <Link href={backTo}>
                <ArrowLeft aria-hidden="true" />
                Go back
              </Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
