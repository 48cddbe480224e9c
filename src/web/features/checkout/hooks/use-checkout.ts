import type { Stripe } from "@stripe/stripe-js";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { PRICE_CHANGED } from "../../../../shared/contracts/payments.js";
import { displayName } from "../../../domain/display-name.js";
import {
  clearPendingRegistration,
  type PendingRegistration,
  readPendingRegistration,
  savePendingRegistration,
} from "../../../domain/pending-registration.js";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { paymentSettingsQuery } from "../../../domain/public-queries.js";
import { useRegisterAccount } from "../../../domain/register-account.js";
import { currentUserQuery, planChanged } from "../../../domain/session.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { cancelCheckout, completeUpgrade, openCheckout, readCheckout, readOwnRegistration } from "../api.js";
import { CHECKOUT_TEXTS } from "../checkout-texts.js";
import { stripeFor } from "../stripe.js";

export type CheckoutMode = "register" | "upgrade";

/** While Stripe says "processing": ask again every 3 s, at most 10 times. */
const POLL_EVERY_MS = 3000;
const POLL_TIMES = 10;
/** While the form is shown: the checkout is read every minute (a registration's hold lasts 5 quiet minutes). */
const ALIVE_EVERY_MS = 60_000;

/** The server voided the checkout because the price changed (decision 029). */
const priceChangedError = (error: unknown) => isApiError(error) && error.status === 409 && error.message === PRICE_CHANGED;

export type CheckoutPhase =
  /** Waiting for the client secret (and Stripe.js). */
  | { kind: "starting" }
  /** 503: Stripe is not set up. */
  | { kind: "unavailable" }
  /** The checkout could not be set up; Retry starts again. */
  | { kind: "failed"; message: string }
  | { kind: "paying"; stripe: Stripe; clientSecret: string; paymentIntentId: string }
  /** Paid: creating the account or upgrading it (`processing`: Stripe has not confirmed yet, asking again). */
  | { kind: "finishing"; processing: boolean }
  /** Paid (or processing), but the end did not go through: the message says what to do; Try again asks again. */
  | { kind: "stuck"; title: string; message: string; paymentIntentId: string; processing: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The Early Access checkout, from the client secret to the account: starts (or resumes) the checkout on the
 * server, loads Stripe.js with the key the server names, shows the form unless the intent was already paid
 * (a reload, a redirect back from the bank), then finishes with the server, which checks the payment with
 * Stripe itself. `redirect`: the intent id and status Stripe put in the URL when it came back from a redirect.
 */
export function useCheckout({
  mode,
  from,
  redirect,
  clearRedirect,
}: {
  mode: CheckoutMode;
  /** Where an upgrade goes back to (a same-site path). */
  from: string;
  redirect: { paymentIntentId: string; status: string } | null;
  clearRedirect: () => void;
}) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const platformName = usePlatformName();
  const [phase, setPhase] = useState<CheckoutPhase>(() => (redirect ? { kind: "finishing", processing: false } : { kind: "starting" }));
  const alive = useRef(true);
  // The registration's display data: this tab's, or read back from the server (its cookie) after the tab was closed.
  const [registration, setRegistration] = useState<PendingRegistration | null>(() =>
    mode === "register" ? readPendingRegistration() : null,
  );
  const [cancelling, setCancelling] = useState(false);

  /** Nothing to pay for in this browser; the Register tab, filled in with what can be kept. */
  function missingRegistration(kept: { username: string; name: string; email: string } | null): void {
    const text = kept ? CHECKOUT_TEXTS.checkoutEnded : CHECKOUT_TEXTS.missingRegistration;
    notify.error("Missing Registration Data", text, "missing-registration");
    toRegisterForm(kept);
  }

  /** Back to the Register tab with what can be kept filled in (never the password): the display data stays in this tab. */
  function toRegisterForm(kept: { username: string; name: string; email: string } | null): void {
    if (kept) savePendingRegistration({ ...kept, paymentIntentId: null });
    else clearPendingRegistration();
    navigate(paths.register, { replace: true });
  }

  const register = useRegisterAccount({
    onSuccess: (user) => {
      clearPendingRegistration();
      notify.success("Registration Successful!", `Welcome to ${platformName}, ${displayName(user)}! Your Early Access account is ready.`);
      navigate(paths.home, { replace: true });
    },
  });

  /** The price changed while paying: say so, show the new price, and start again (a registration from its form). */
  function priceChanged(): void {
    notify.error("The price changed", PRICE_CHANGED, "price-changed");
    void client.invalidateQueries({ queryKey: paymentSettingsQuery.queryKey });
    if (mode === "register") {
      // The form comes back filled in (display data only): the password is typed again.
      navigate(paths.register, { replace: true });
      return;
    }
    setPhase({ kind: "failed", message: PRICE_CHANGED });
  }

  /** Reads the checkout the form pays (its hold renewed); a voided or finished one moves the page on. */
  async function check(paymentIntentId: string): Promise<void> {
    try {
      const status = await readCheckout(paymentIntentId);
      if (alive.current && status.state === "completed") await finish(paymentIntentId, false);
    } catch (error) {
      if (!alive.current) return;
      if (priceChangedError(error)) return priceChanged();
      // Ended another way (replaced, or with support): the message says what to do; Retry starts again.
      if (isApiError(error) && error.status === 409) setPhase({ kind: "failed", message: errorMessage(error) });
    }
  }

  async function start(): Promise<void> {
    setPhase({ kind: "starting" });
    // Stripe.js loads while the server prepares the intent; the key comes from the server, read fresh.
    const stripeLoad = client
      .fetchQuery({ ...paymentSettingsQuery, staleTime: 0 })
      .then((settings) => (settings.publishableKey ? stripeFor(settings.publishableKey) : null));
    stripeLoad.catch(() => undefined);

    if (mode === "register" && !readPendingRegistration()) {
      // The tab that started it was closed: this browser's checkout (its cookie) comes back, or the Register tab.
      const own = await readOwnRegistration().then(
        (answer) => answer.registration,
        () => null,
      );
      if (!alive.current) return;
      if (!own?.open) return missingRegistration(own);
      savePendingRegistration({ ...own, paymentIntentId: null });
    }

    let intent: { clientSecret: string; paymentIntentId: string };
    try {
      intent = await openCheckout();
    } catch (error) {
      if (!alive.current) return;
      if (isApiError(error) && error.status === 503) return setPhase({ kind: "unavailable" });
      if (priceChangedError(error)) return priceChanged();
      if (mode === "register" && isApiError(error) && error.status === 400) {
        // Nothing to resume in this browser: the Register tab, filled in with what this tab knew.
        return missingRegistration(registration);
      }
      if (mode === "upgrade" && isApiError(error) && error.status === 409) {
        // Already Early Access (another tab paid): the user is read again and the route guard moves on.
        notify.success("You already have Early Access", errorMessage(error));
        void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
        return;
      }
      const message = errorMessage(error, CHECKOUT_TEXTS.setupFailed);
      notify.error("Payment Error", message);
      return setPhase({ kind: "failed", message });
    }
    if (!alive.current) return;
    if (!intent?.clientSecret) {
      notify.error("Payment Error", CHECKOUT_TEXTS.missingClientSecret);
      return setPhase({ kind: "failed", message: CHECKOUT_TEXTS.missingClientSecret });
    }
    if (mode === "register") {
      const pending = readPendingRegistration();
      if (pending && pending.paymentIntentId !== intent.paymentIntentId)
        savePendingRegistration({ ...pending, paymentIntentId: intent.paymentIntentId });
      setRegistration(readPendingRegistration());
    }

    let stripe: Stripe | null | undefined;
    try {
      stripe = await stripeLoad;
    } catch {
      stripe = undefined;
    }
    if (!alive.current) return;
    if (stripe === null) return setPhase({ kind: "unavailable" });
    if (!stripe) {
      notify.error("Payment Error", CHECKOUT_TEXTS.stripeNotLoaded);
      return setPhase({ kind: "failed", message: CHECKOUT_TEXTS.stripeNotLoaded });
    }
    // Paid already (a reload after paying, a second tab): finish instead of showing the form again.
    const status = await stripe.retrievePaymentIntent(intent.clientSecret).then(
      (result) => result.paymentIntent?.status,
      () => undefined,
    );
    if (!alive.current) return;
    if (status === "succeeded" || status === "processing") return finish(intent.paymentIntentId, status === "processing");
    setPhase({ kind: "paying", stripe, clientSecret: intent.clientSecret, paymentIntentId: intent.paymentIntentId });
  }

  async function finish(paymentIntentId: string, processing: boolean): Promise<void> {
    setPhase({ kind: "finishing", processing });
    for (let attempt = 1; alive.current; attempt++) {
      try {
        if (mode === "register") {
          // Signs in; its onSuccess clears the stored data, says so and opens the dashboard.
          await register.mutateAsync({ planType: "earlyAccess", paymentIntentId });
        } else {
          const user = await completeUpgrade(paymentIntentId);
          notify.success("Upgrade Successful!", "Your account now has Early Access.");
          navigate(from, { replace: true });
          planChanged(client, user);
        }
        return;
      } catch (error) {
        if (!alive.current) return;
        if (priceChangedError(error)) return priceChanged();
        const unpaid = isApiError(error) && error.status === 402;
        if (unpaid && processing) {
          if (attempt < POLL_TIMES) {
            await sleep(POLL_EVERY_MS);
            continue;
          }
          return setPhase({
            kind: "stuck",
            title: "Your payment is still processing",
            message: CHECKOUT_TEXTS.stillProcessing,
            paymentIntentId,
            processing,
          });
        }
        if (unpaid) {
          // Not paid after all (declined after a redirect, canceled): say so and show the form again.
          notify.error("Payment Failed", errorMessage(error, CHECKOUT_TEXTS.paymentFailed));
          return start();
        }
        const title = mode === "register" ? "Registration Failed" : "Upgrade Failed";
        const message = errorMessage(error, mode === "register" ? CHECKOUT_TEXTS.registrationFailed : CHECKOUT_TEXTS.upgradeFailed);
        notify.error(title, message);
        return setPhase({ kind: "stuck", title, message, paymentIntentId, processing });
      }
    }
  }

  /** Back from Stripe's redirect: finish from the intent in the URL (a failed one goes back to the form). */
  function resumeFromRedirect(back: { paymentIntentId: string; status: string }): Promise<void> {
    clearRedirect();
    if (back.status === "succeeded" || back.status === "processing") return finish(back.paymentIntentId, back.status === "processing");
    notify.error("Payment Failed", CHECKOUT_TEXTS.paymentFailed);
    return start();
  }

  const latest = useRef({ start, finish, resumeFromRedirect, redirect, check });
  latest.current = { start, finish, resumeFromRedirect, redirect, check };
  const begun = useRef(false);

  useEffect(() => {
    alive.current = true;
    if (!begun.current) {
      begun.current = true;
      const { redirect: back, resumeFromRedirect: resume, start: begin } = latest.current;
      void (back ? resume(back) : begin());
    }
    return () => {
      alive.current = false;
    };
  }, []);

  // While the form is shown, the page is alive: read the checkout every minute.
  const payingIntent = phase.kind === "paying" ? phase.paymentIntentId : null;
  useEffect(() => {
    if (!payingIntent) return;
    const timer = setInterval(() => void latest.current.check(payingIntent), ALIVE_EVERY_MS);
    return () => clearInterval(timer);
  }, [payingIntent]);

  /** Cancel: the checkout ends on the server (its intent cancelled, the name and email free); paid already: finish. */
  async function cancel(): Promise<void> {
    setCancelling(true);
    try {
      await cancelCheckout();
    } catch (error) {
      if (!alive.current) return;
      setCancelling(false);
      if (isApiError(error) && error.status === 409 && phase.kind === "paying") return finish(phase.paymentIntentId, false);
      notify.error("The checkout could not be cancelled", errorMessage(error, CHECKOUT_TEXTS.setupFailed));
      return;
    }
    if (!alive.current) return;
    notify.success("Checkout cancelled", CHECKOUT_TEXTS.cancelled);
    toRegisterForm(registration);
  }

  return {
    phase,
    /** The registration's display data (register mode), once known. */
    registration,
    cancelling,
    /** Back to the Register tab; the checkout keeps its hold (the same details continue it). */
    back: () => navigate(paths.register),
    cancel: () => void cancel(),
    /** Set up the checkout again (after a failure). */
    retry: () => void latest.current.start(),
    /** Stripe confirmed the payment in the page: finish. */
    paid: (paymentIntentId: string, processing: boolean) => void latest.current.finish(paymentIntentId, processing),
    /** Ask the server again (after a failed finish or a long "processing"). */
    finishAgain: (paymentIntentId: string, processing: boolean) => void latest.current.finish(paymentIntentId, processing),
    /** The payment did not go through: ask the server why it might not (a price change voids the intent). */
    paymentFailed: (paymentIntentId: string) => void latest.current.check(paymentIntentId),
  };
}
