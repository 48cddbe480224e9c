import { useQuery } from "@tanstack/react-query";
import { DEFAULT_PAYMENT_SETTINGS } from "../../shared/constants.js";
import { publicContentApi } from "../../shared/contracts/public-content.js";
import { formatPrice } from "../../shared/format-price.js";
import { endpointQuery } from "../lib/api-client.js";

/** GET /api/payment-settings (public). */
export const paymentSettingsQuery = endpointQuery(publicContentApi.paymentSettings, {});

/** The Early Access price, formatted; the spec's defaults (USD 297) when the read fails. */
export function useEarlyAccessPrice() {
  const query = useQuery(paymentSettingsQuery);
  const settings = query.data ?? DEFAULT_PAYMENT_SETTINGS;
  return {
    isLoading: query.isPending,
    currency: settings.currency.toUpperCase(),
    price: formatPrice(settings.earlyAccessPrice, settings.currency),
  };
}
