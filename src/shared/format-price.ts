/**
 * A prerendered page (issue 13) is rendered at build time with placeholder tokens (`%%NAME%%`, see
 * shared/prerender.ts) where live values go. A price built from a token cannot be formatted then, so it
 * comes out as one price token the server formats with the live amount and currency per request.
 */
const TOKEN = /^%%[A-Z_]+%%$/;

/** `%%PRICE[amount|currency]%%`: either part may itself be a token. */
export const PRICE_TOKEN = /%%PRICE\[([^\]|]*)\|([^\]]*)\]%%/g;

/** "297" + "usd" -> "$297" (en-US), keeping cents only when there are some. */
export function formatPrice(amount: string | number, currency: string): string {
  const code = currency.trim().toUpperCase() || "USD";
  if ((typeof amount === "string" && TOKEN.test(amount)) || TOKEN.test(code)) return `%%PRICE[${amount}|${code}]%%`;
  const value = typeof amount === "number" ? amount : Number.parseFloat(amount);
  const safeValue = Number.isFinite(value) ? value : 0;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: Number.isInteger(safeValue) ? 0 : 2,
    }).format(safeValue);
  } catch {
    return `${safeValue} ${code}`;
  }
}
