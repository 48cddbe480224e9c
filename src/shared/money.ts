/**
 * Prices as Stripe takes them. An amount is written in major units ("297", "19.50") and sent in the
 * currency's minor units: 297 USD → 29700, 5000 JPY → 5000 (zero-decimal), 12.5 KWD → 12500 (three
 * decimals). https://docs.stripe.com/currencies#zero-decimal
 */
const ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "JPY",
  "KMF",
  "KRW",
  "MGA",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);
const THREE_DECIMAL = new Set(["BHD", "JOD", "KWD", "OMR", "TND"]);

/** How many decimals the currency's minor unit has (0, 2 or 3). */
export function currencyDecimals(currency: string): number {
  const code = currency.trim().toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/** A decimal amount written as text: digits, optionally a dot and up to two decimals. */
export const PRICE_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

/**
 * "297" + "usd" → 29700. Exact (no floating point): the text is split at the dot. Null when the
 * amount is not a price, or has decimals a zero-decimal currency cannot take.
 */
export function toMinorUnits(amount: string, currency: string): number | null {
  const text = amount.trim();
  if (!PRICE_PATTERN.test(text)) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return /^0*$/.test(fraction) ? Number(whole) : null;
  const minor = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, "0"));
  return Number.isSafeInteger(minor) ? minor : null;
}

/** 29700 + "usd" → "297.00" (major units, the currency's decimals). */
export function fromMinorUnits(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(decimals + 1, "0");
  return `${minor < 0 ? "-" : ""}${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Stripe ids shown to admins: the first 7 characters, an ellipsis, the last 4 (docs/product.md, Defaults and constants). */
export function maskStripeId(id: string): string {
  return id.length <= 11 ? id : `${id.slice(0, 7)}…${id.slice(-4)}`;
}
