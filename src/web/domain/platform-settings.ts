import { type QueryClient, useQuery } from "@tanstack/react-query";
import { DEFAULT_PAYMENT_SETTINGS } from "../../shared/constants.js";
import { PLATFORM_SETTINGS_DEFAULTS } from "../../shared/contracts/platform-settings.js";
import { type PlatformSettingsPublic, publicContentApi } from "../../shared/contracts/public-content.js";
import { endpointQuery } from "../lib/api-client.js";

/** GET /api/platform-settings (public): the product name and the switches every screen reacts to. */
export const publicPlatformSettingsQuery = endpointQuery(publicContentApi.platformSettings, {});

const FALLBACK: PlatformSettingsPublic = {
  platformName: PLATFORM_SETTINGS_DEFAULTS.platformName,
  allowRegistration: PLATFORM_SETTINGS_DEFAULTS.allowRegistration,
  enableHistory: PLATFORM_SETTINGS_DEFAULTS.enableHistory,
  enableModelSelection: PLATFORM_SETTINGS_DEFAULTS.enableModelSelection,
  supportEmail: null,
  ...DEFAULT_PAYMENT_SETTINGS,
};

/**
 * The platform settings for the whole web app. While the read is on its way, or if it fails, the spec's
 * defaults apply (`isPending` tells a screen to wait when a default would flash); the server enforces
 * every switch whatever the screen shows.
 */
export function usePlatformSettings(): { settings: PlatformSettingsPublic; isPending: boolean } {
  const query = useQuery(publicPlatformSettingsQuery);
  return { settings: query.data ?? FALLBACK, isPending: query.isPending };
}

/** The product name (Platform Settings), for the header and the page titles. */
export function usePlatformName(): string {
  return usePlatformSettings().settings.platformName;
}

/** After an admin saved the settings: every screen of this browser follows at once. */
export function storePublicPlatformSettings(client: QueryClient, saved: Omit<PlatformSettingsPublic, "currency" | "earlyAccessPrice">) {
  client.setQueryData(publicPlatformSettingsQuery.queryKey, (old) => (old ? { ...old, ...saved } : old));
  if (!client.getQueryData(publicPlatformSettingsQuery.queryKey))
    void client.invalidateQueries({ queryKey: publicPlatformSettingsQuery.queryKey });
}
