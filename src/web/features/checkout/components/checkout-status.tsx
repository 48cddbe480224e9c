import { AlertTriangle, ArrowLeft, Clock, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { Spinner } from "../../../components/ui/spinner.js";

/** The payment card's frame: the same title and note in every state. */
export function PaymentCard({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment</CardTitle>
        <CardDescription>Card payments are processed securely by Stripe. Your card details never reach our servers.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** A wait, said in words beside the spinner. */
export function Waiting({ text, detail }: { text: string; detail?: string }) {
  return (
    <div className="flex items-start gap-3 rounded-lg border border-dashed p-4" aria-live="polite">
      <Spinner className="mt-0.5 size-5" label={text} />
      <div className="grid gap-1">
        <p className="text-sm font-medium" aria-hidden="true">
          {text}
        </p>
        {detail ? <p className="text-sm text-muted-foreground">{detail}</p> : null}
      </div>
    </div>
  );
}

/** The checkout could not be set up: what happened, and Retry. */
export function SetupFailed({
  message,
  onRetry,
  backTo,
  backLabel,
}: {
  message: string;
  onRetry: () => void;
  backTo: string;
  backLabel: string;
}) {
  return (
    <>
      <Alert variant="destructive">
        <AlertTriangle aria-hidden="true" />
        <p>{message}</p>
      </Alert>
      <Button onClick={onRetry} className="w-full">
        <RefreshCw aria-hidden="true" />
        Try again
      </Button>
      <Button variant="ghost" asChild className="w-full">
        <Link href={backTo}>
          <ArrowLeft aria-hidden="true" />
          {backLabel}
        </Link>
      </Button>
    </>
  );
}

/** Paid (or processing), but the account is not ready yet: the message says what to do. */
export function FinishStuck({
  title,
  message,
  processing,
  onRetry,
  backTo,
  backLabel,
}: {
  title: string;
  message: string;
  processing: boolean;
  onRetry: () => void;
  backTo: string;
  backLabel: string;
}) {
  return (
    <>
      <Alert variant={processing ? "default" : "destructive"}>
        {processing ? <Clock aria-hidden="true" /> : <AlertTriangle aria-hidden="true" />}
        <div className="grid gap-1">
          <p className="font-medium">{title}</p>
          <p>{message}</p>
        </div>
      </Alert>
      <Button onClick={onRetry} className="w-full">
        <RefreshCw aria-hidden="true" />
        {processing ? "Check again" : "Try again"}
      </Button>
      <Button variant="ghost" asChild className="w-full">
        <Link href={backTo}>
          <ArrowLeft aria-hidden="true" />
          {backLabel}
        </Link>
      </Button>
    </>
  );
}
