/** "297" + "usd" -> "$297" (en-US), keeping cents only when there are some. */
export function formatPrice(amount: string | number, currency: string): string {
  const value = typeof amount === "number" ? amount : Number.parseFloat(amount);
  const code = currency.trim().toUpperCase() || "USD";
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
