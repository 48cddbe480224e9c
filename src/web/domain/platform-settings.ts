import { DEFAULT_PAYMENT_SETTINGS, PLATFORM_SETTINGS_DEFAULTS } from "../../shared/constants.js";
import type { PlatformSettingsPublic } from "../../shared/contracts/public-content.js";
import { usePublicReads } from "./public-reads.js";

/** What holds while the read is on its way, or when it fails: the product's defaults. */
export const PLATFORM_SETTINGS_FALLBACK: PlatformSettingsPublic = {
  platformName: PLATFORM_SETTINGS_DEFAULTS.platformName,
  allowRegistration: PLATFORM_SETTINGS_DEFAULTS.allowRegistration,
  enableHistory: PLATFORM_SETTINGS_DEFAULTS.enableHistory,
  enableModelSelection: PLATFORM_SETTINGS_DEFAULTS.enableModelSelection,
  supportEmail: null,
  ...DEFAULT_PAYMENT_SETTINGS,
};

/**
 * The platform settings for the whole web app. While the read is on its way, or if it fails, the product's
 * defaults apply (`isPending` tells a screen to wait when a default would flash); the server enforces
 * every switch whatever the screen shows.
 */
export function usePlatformSettings(): { settings: PlatformSettingsPublic; isPending: boolean } {
  return usePublicReads().usePlatformSettings();
}

/** The product name (Platform Settings), for the header and the page titles. */
export function usePlatformName(): string {
  return usePlatformSettings().settings.platformName;
}
