import { createContext, useContext } from "react";
import type { PublicUser } from "../../shared/contracts/auth.js";
import type { PaymentSettingsPublic, PlatformSettingsPublic } from "../../shared/contracts/public-content.js";

/**
 * What the public pages and the shell's first screen read: the product name and switches, the price, and
 * who is signed in. Two apps supply it (decision 015):
 * - the signed-in app (main.tsx), from React Query reads that follow every change (`domain/public-queries.ts`);
 * - the prerendered public pages (public-main.tsx), from the values the server put into the page
 *   (`domain/boot-reads.ts`), so a visitor's first screen loads neither React Query nor zod.
 * The members are hooks, chosen once per app: a component calls the same ones on every render.
 */
export interface PublicReads {
  usePlatformSettings(): { settings: PlatformSettingsPublic; isPending: boolean };
  usePaymentSettings(): { settings: PaymentSettingsPublic; isPending: boolean; isError: boolean; refetch: () => unknown };
  /** The signed-in user, or null (a visitor, or still being read). */
  useSignedInUser(): PublicUser | null;
  /** The product name if already known, read without fetching (the error screens). */
  knownPlatformName(): string | undefined;
}

export const PublicReadsContext = createContext<PublicReads | null>(null);

export function usePublicReads(): PublicReads {
  const reads = useContext(PublicReadsContext);
  if (!reads) throw new Error("usePublicReads() needs a PublicReadsContext provider (app/providers.tsx or app/public-app.tsx)");
  return reads;
}

/** The signed-in user, or null: for pages anyone may open (the header's links, the pricing buttons). */
export function useSignedInUser(): PublicUser | null {
  return usePublicReads().useSignedInUser();
}
