import type { QueryClient } from "@tanstack/react-query";
import { BOOT_DATA_ID, type BootData } from "../../shared/prerender.js";
import { paymentSettingsQuery } from "../domain/payment-settings.js";
import { publicPlatformSettingsQuery } from "../domain/platform-settings.js";
import { currentUserQuery } from "../domain/session.js";

/**
 * A prerendered public page (issue 13) carries the public settings the server put into it. Seeding the
 * reads with them (and the session as signed out, which is why the server sent that page) before the first
 * render gives the browser the very tree the build rendered: hydration without a flash or a refetch.
 */
export function seedBootData(client: QueryClient, boot: BootData): void {
  client.setQueryData(currentUserQuery.queryKey, null);
  client.setQueryData(publicPlatformSettingsQuery.queryKey, boot.platformSettings);
  client.setQueryData(paymentSettingsQuery.queryKey, boot.paymentSettings);
}

/** The page's boot data, or null (a plain page, or a block that does not read as one). */
export function readBootData(): BootData | null {
  const text = document.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const boot = JSON.parse(text) as Partial<BootData> | null;
    if (
      boot &&
      typeof boot.platformSettings === "object" &&
      boot.platformSettings &&
      typeof boot.paymentSettings === "object" &&
      boot.paymentSettings
    )
      return boot as BootData;
  } catch {
    // A damaged block: the page still works, rendered in the browser from its own reads.
  }
  return null;
}
