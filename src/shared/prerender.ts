/**
 * Prerendered public pages (issue 13): what the build, the server and the browser agree on.
 *
 * - The build (scripts/prerender.ts) renders each public page signed out, with tokens (`SENTINELS`) where
 *   the live values go, once per `Variant` (the switches and empty values a page may show differently).
 * - The server picks the variant of the live settings, puts the live values in (`fillLiveValues`) and adds
 *   the boot data (`bootDataScript`): the settings exactly as the public API answers them.
 * - The browser seeds its reads with the boot data before it hydrates, so its first render is the server's.
 */
import { formatPrice, PRICE_TOKEN } from "./format-price.js";
import type { PublicPage } from "./public-pages.js";

/** The id of the `<script type="application/json">` block (data, never executed: the CSP allows it). */
export const BOOT_DATA_ID = "boot-data";

/**
 * `GET /api/platform-settings` and `GET /api/payment-settings` as the public API answers them (the shapes of
 * contracts/public-content.ts, written out: shared/ does not import contracts/; the type checker matches
 * them where the server fills this in and where the web seeds its reads with it).
 */
export interface BootData {
  platformSettings: {
    platformName: string;
    allowRegistration: boolean;
    enableHistory: boolean;
    enableModelSelection: boolean;
    supportEmail: string | null;
    currency: string;
    earlyAccessPrice: string;
  };
  paymentSettings: { currency: string; earlyAccessPrice: string; paymentsAvailable: boolean; publishableKey: string | null };
  /**
   * A page rendered at request time (the catalogue, issue 33): the public API's answers its first render reads, by the
   * read's URL (`/api/catalog?q=x`); null where that read answers 404. The page takes them instead of asking again.
   */
  reads?: Record<string, unknown>;
}

/** Beside index.html in the built web app: the pages and the manifest naming the file of each variant. */
export const PRERENDERED_DIR = "prerendered";
export const PRERENDER_MANIFEST = "manifest.json";
/** Beside index.html too: the render bundle of entry-prerender.tsx the server renders live pages with (never served). */
export const SSR_DIR = "ssr";
export const SSR_ENTRY = "entry-prerender.js";

export interface PrerenderManifest {
  /** By page path: the file (in PRERENDERED_DIR) of each variant, by `variantKey()`. */
  pages: Record<string, { slug: string; variants: Record<string, string> }>;
}

/** Where the live values go in a prerendered page. Upper case, so `toUpperCase()` keeps them. */
export const SENTINELS = {
  platformName: "%%PLATFORM_NAME%%",
  supportEmail: "%%SUPPORT_EMAIL%%",
  earlyAccessPrice: "%%EA_PRICE%%",
  currency: "%%CURRENCY%%",
  publishableKey: "%%PUBLISHABLE_KEY%%",
} as const;

/** Any token left in a page (a value the server does not know: a page used a token in a way it cannot fill). */
export const ANY_TOKEN = /%%[A-Z_]+%%/;

/** The live texts of a page, by token. */
export type LiveTexts = Record<keyof typeof SENTINELS, string>;

const SWITCHES = ["allowRegistration", "enableHistory", "enableModelSelection", "supportEmail", "paymentsAvailable"] as const;

/** What a page may render differently besides the texts: each switch, and whether the support email is set. */
export type Variant = Record<(typeof SWITCHES)[number], boolean>;

export function variantOf(boot: BootData): Variant {
  return {
    allowRegistration: boot.platformSettings.allowRegistration,
    enableHistory: boot.platformSettings.enableHistory,
    enableModelSelection: boot.platformSettings.enableModelSelection,
    supportEmail: boot.platformSettings.supportEmail !== null,
    paymentsAvailable: boot.paymentSettings.paymentsAvailable,
  };
}

/** "allowRegistration=1,enableHistory=1,...": the manifest's name of a variant. */
export function variantKey(variant: Variant): string {
  return SWITCHES.map((name) => `${name}=${variant[name] ? 1 : 0}`).join(",");
}

/** Every variant, the defaults (everything on) first. */
export function allVariants(): Variant[] {
  return Array.from({ length: 2 ** SWITCHES.length }, (_, bits) =>
    Object.fromEntries(SWITCHES.map((name, index) => [name, (bits & (1 << index)) === 0])),
  ) as Variant[];
}

/** The settings a page is rendered with: this variant's switches, these texts (the tokens at build time). */
export function bootDataFor(variant: Variant, texts: LiveTexts = SENTINELS): BootData {
  const price = { earlyAccessPrice: texts.earlyAccessPrice, currency: texts.currency };
  return {
    platformSettings: {
      platformName: texts.platformName,
      allowRegistration: variant.allowRegistration,
      enableHistory: variant.enableHistory,
      enableModelSelection: variant.enableModelSelection,
      supportEmail: variant.supportEmail ? texts.supportEmail : null,
      ...price,
    },
    paymentSettings: {
      ...price,
      paymentsAvailable: variant.paymentsAvailable,
      publishableKey: variant.paymentsAvailable ? texts.publishableKey : null,
    },
  };
}

/** As React escapes text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** A prerendered page with the live values in place of the tokens, HTML-escaped. */
export function fillLiveValues(html: string, boot: BootData): string {
  const live = new Map<string, string>([
    [SENTINELS.platformName, boot.platformSettings.platformName],
    [SENTINELS.supportEmail, boot.platformSettings.supportEmail ?? ""],
    [SENTINELS.earlyAccessPrice, boot.paymentSettings.earlyAccessPrice],
    [SENTINELS.currency, boot.paymentSettings.currency],
    [SENTINELS.publishableKey, boot.paymentSettings.publishableKey ?? ""],
  ]);
  const raw = (text: string) => text.replace(/%%[A-Z_]+%%/g, (token) => live.get(token) ?? token);
  return (
    html
      .replace(PRICE_TOKEN, (_match, amount: string, currency: string) => escapeHtml(formatPrice(raw(amount), raw(currency))))
      // A token inside a link (`mailto:`, a query) may have been percent-encoded.
      .replace(/%25%25([A-Z_]+)%25%25/g, (match, name: string) => {
        const value = live.get(`%%${name}%%`);
        return value === undefined ? match : escapeHtml(encodeURIComponent(value));
      })
      .replace(/%%[A-Z_]+%%/g, (token) => {
        const value = live.get(token);
        return value === undefined ? token : escapeHtml(value);
      })
  );
}

/** The boot data block; `<` is escaped so no value can close the script element. */
export function bootDataScript(boot: BootData): string {
  const json = JSON.stringify({
    platformSettings: boot.platformSettings,
    paymentSettings: boot.paymentSettings,
    ...(boot.reads ? { reads: boot.reads } : {}),
  });
  return `<script type="application/json" id="${BOOT_DATA_ID}">${json.replace(/</g, "\\u003c")}</script>`;
}

/** A public page's `<title>`: the product name after the page's title ("Pricing | Lumora"), first on the landing. */
export function publicPageTitle(page: PublicPage, platformName: string): string {
  return page.path === "/" ? `${platformName} | ${page.title}` : `${page.title} | ${platformName}`;
}
