import { type QueryClient, useQuery } from "@tanstack/react-query";
import { typedAddress } from "../../shared/contracts/endpoint.js";
import { firstScreenReads } from "../../shared/contracts/first-screen-reads.js";
import type { PlatformSettingsPublic, publicContentApi } from "../../shared/contracts/public-content.js";
import { endpointQuery } from "../lib/endpoint-query.js";
import { queryClient } from "../lib/query-client.js";
import { PAYMENT_SETTINGS_FALLBACK } from "./payment-settings.js";
import { PLATFORM_SETTINGS_FALLBACK } from "./platform-settings.js";
import type { PublicReads } from "./public-reads.js";
import { useCurrentUser } from "./session.js";

/** GET /api/platform-settings (public): the product name and the switches every screen reacts to. */
export const publicPlatformSettingsQuery = endpointQuery(
  typedAddress<typeof publicContentApi.platformSettings>(firstScreenReads.platformSettings),
  {},
);

/** GET /api/payment-settings (public): the price, whether card payments can be taken, Stripe's publishable key. */
export const paymentSettingsQuery = endpointQuery(
  typedAddress<typeof publicContentApi.paymentSettings>(firstScreenReads.paymentSettings),
  {},
);

/** The signed-in app's public reads: React Query reads, fetched where first used and kept up to date. */
export const queryPublicReads: PublicReads = {
  usePlatformSettings() {
    const query = useQuery(publicPlatformSettingsQuery);
    return { settings: query.data ?? PLATFORM_SETTINGS_FALLBACK, isPending: query.isPending };
  },
  usePaymentSettings() {
    const query = useQuery(paymentSettingsQuery);
    return {
      settings: query.data ?? PAYMENT_SETTINGS_FALLBACK,
      isPending: query.isPending,
      isError: query.isError,
      refetch: query.refetch,
    };
  },
  useSignedInUser() {
    return useCurrentUser().user;
  },
  knownPlatformName() {
    return queryClient.getQueryData(publicPlatformSettingsQuery.queryKey)?.platformName;
  },
};

/** After an admin saved the settings: every screen of this browser follows at once. */
export function storePublicPlatformSettings(client: QueryClient, saved: Omit<PlatformSettingsPublic, "currency" | "earlyAccessPrice">) {
  client.setQueryData(publicPlatformSettingsQuery.queryKey, (old) => (old ? { ...old, ...saved } : old));
  if (!client.getQueryData(publicPlatformSettingsQuery.queryKey))
    void client.invalidateQueries({ queryKey: publicPlatformSettingsQuery.queryKey });
}
