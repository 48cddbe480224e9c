import { DEFAULT_PAYMENT_SETTINGS } from "../../shared/constants.js";
import type { PaymentSettingsPublic } from "../../shared/contracts/public-content.js";
import { formatPrice } from "../../shared/format-price.js";
import { usePublicReads } from "./public-reads.js";

/** What holds while the read is on its way, or when it fails: the product's price, payments not available. */
export const PAYMENT_SETTINGS_FALLBACK: PaymentSettingsPublic = {
  ...DEFAULT_PAYMENT_SETTINGS,
  paymentsAvailable: false,
  publishableKey: null,
};

/**
 * The public payment settings (GET /api/payment-settings: the price, whether card payments can be taken,
 * Stripe's publishable key). While the read is on its way, or when it fails, the product's price (USD 297)
 * shows and payments count as not available (`isPending` tells a screen to wait instead).
 */
export function usePaymentSettings() {
  return usePublicReads().usePaymentSettings();
}

/** The Early Access price, formatted; the product's defaults (USD 297) when the read fails. */
export function useEarlyAccessPrice() {
  const { settings, isPending } = usePaymentSettings();
  return {
    isLoading: isPending,
    currency: settings.currency.toUpperCase(),
    price: formatPrice(settings.earlyAccessPrice, settings.currency),
  };
}

/**
 * The Free plan's price in the currency the Early Access price is shown in ("€0" beside "€149.50"), so one
 * page never mixes two currencies; the product's "$0" while the currency is USD.
 */
export function useFreePlanPrice(): string {
  const { settings } = usePaymentSettings();
  return formatPrice(0, settings.currency);
}
