import { useQuery } from "@tanstack/react-query";
import { DEFAULT_PAYMENT_SETTINGS } from "../../shared/constants.js";
import { type PaymentSettingsPublic, publicContentApi } from "../../shared/contracts/public-content.js";
import { formatPrice } from "../../shared/format-price.js";
import { endpointQuery } from "../lib/api-client.js";

/** GET /api/payment-settings (public): the price, whether card payments can be taken, Stripe's publishable key. */
export const paymentSettingsQuery = endpointQuery(publicContentApi.paymentSettings, {});

const FALLBACK: PaymentSettingsPublic = { ...DEFAULT_PAYMENT_SETTINGS, paymentsAvailable: false, publishableKey: null };

/**
 * The public payment settings. While the read is on its way, or when it fails, the spec's price (USD 297)
 * shows and payments count as not available (`isPending` tells a screen to wait instead).
 */
export function usePaymentSettings() {
  const query = useQuery(paymentSettingsQuery);
  return { settings: query.data ?? FALLBACK, isPending: query.isPending, isError: query.isError, refetch: query.refetch };
}

/** The Early Access price, formatted; the spec's defaults (USD 297) when the read fails. */
export function useEarlyAccessPrice() {
  const { settings, isPending } = usePaymentSettings();
  return {
    isLoading: isPending,
    currency: settings.currency.toUpperCase(),
    price: formatPrice(settings.earlyAccessPrice, settings.currency),
  };
}
