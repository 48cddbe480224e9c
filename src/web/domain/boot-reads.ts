import type { BootData } from "../../shared/prerender.js";
import type { PublicReads } from "./public-reads.js";

/**
 * The prerendered public pages' reads: the values the server put into the page (`#boot-data`), which is
 * also what the build rendered, so hydration matches. The server sends these pages only to visitors
 * without a session, so nobody is signed in.
 */
export function bootPublicReads(boot: BootData): PublicReads {
  const platformSettings = { settings: boot.platformSettings, isPending: false };
  const paymentSettings = { settings: boot.paymentSettings, isPending: false, isError: false, refetch: () => undefined };
  return {
    usePlatformSettings: () => platformSettings,
    usePaymentSettings: () => paymentSettings,
    useSignedInUser: () => null,
    knownPlatformName: () => boot.platformSettings.platformName,
  };
}
