import { useEarlyAccessPrice } from "../../../domain/payment-settings.js";

/**
 * The live Early Access price (Payment Settings). While it is read (never in the prerendered page, where it
 * is seeded) a short placeholder stands in, so a default price never flashes before the real one.
 */
export function EarlyAccessPrice({ className }: { className?: string }) {
  const { price, isLoading } = useEarlyAccessPrice();
  if (isLoading) {
    return (
      <span className={className} aria-busy="true">
        <span aria-hidden="true">…</span>
        <span className="sr-only">Loading the price</span>
      </span>
    );
  }
  return <span className={className}>{price}</span>;
}
