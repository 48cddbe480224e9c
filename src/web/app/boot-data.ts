import { BOOT_DATA_ID, type BootData } from "../../shared/prerender.js";
import { PAYMENT_SETTINGS_FALLBACK } from "../domain/payment-settings.js";
import { PLATFORM_SETTINGS_FALLBACK } from "../domain/platform-settings.js";

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

/** The product's defaults, for a public page whose values block could not be read. */
export function fallbackBootData(): BootData {
  return { platformSettings: PLATFORM_SETTINGS_FALLBACK, paymentSettings: PAYMENT_SETTINGS_FALLBACK };
}
