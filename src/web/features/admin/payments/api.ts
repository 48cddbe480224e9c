import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type AdminPaymentSettings,
  adminPaymentsApi as api,
  type PaymentSettingsBody,
  paymentsApi,
} from "../../../../shared/contracts/payments.js";
import { paymentSettingsQuery } from "../../../domain/public-queries.js";
import { call, isApiError } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/payment-settings: the saved price (or the defaults, `id: null`), the masked Stripe ids and the key status. */
export const adminPaymentSettingsQuery = endpointQuery(api.get, {});

/** GET /api/admin/unfinished-payments: paid checkouts that could not finish. */
export const unfinishedPaymentsQuery = endpointQuery(api.unfinished, {});

/**
 * POST when none are saved (`id: null` in the read), else PATCH. When the read failed (`exists: null`) or is
 * out of date (another admin saved meanwhile), the other call follows a 404 or a 409, so the save still lands.
 */
async function savePaymentSettings(body: PaymentSettingsBody, exists: boolean | null): Promise<AdminPaymentSettings> {
  if (exists === false) {
    try {
      return await call(api.create, { body });
    } catch (error) {
      if (isApiError(error) && error.status === 409) return call(api.update, { body });
      throw error;
    }
  }
  try {
    return await call(api.update, { body });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return call(api.create, { body });
    throw error;
  }
}

/** Saves price, currency and any typed key; the answer replaces the cached read, and the public price is read again. */
export function useSavePaymentSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, exists }: { body: PaymentSettingsBody; exists: boolean | null }) => savePaymentSettings(body, exists),
    onSuccess: (saved) => {
      client.setQueryData(adminPaymentSettingsQuery.queryKey, saved);
      void client.invalidateQueries({ queryKey: paymentSettingsQuery.queryKey });
    },
  });
}

/** POST /api/ask-secrets: emails the administrators which keys are missing and where to find them. */
export function useAskForSecrets() {
  return useMutation({
    mutationFn: (body: { secret_keys: string[]; user_message: string }) => call(paymentsApi.askSecrets, { body }),
  });
}

/** POST /api/admin/unfinished-payments/{id}/resolve: the payment leaves the list. */
export function useResolveUnfinishedPayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.resolveUnfinished, { params: { id } }),
    onSuccess: (_result, id) => {
      client.setQueryData(unfinishedPaymentsQuery.queryKey, (list) => list?.filter((payment) => payment.id !== id));
      void client.invalidateQueries({ queryKey: unfinishedPaymentsQuery.queryKey });
    },
  });
}
