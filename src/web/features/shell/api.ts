import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import type { authApi } from "../../../shared/contracts/auth.js";
import { typedAddress } from "../../../shared/contracts/endpoint.js";
import { firstScreenCalls } from "../../../shared/contracts/first-screen-reads.js";
import { signOut } from "../../domain/session.js";
import { call, errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { paths } from "../../lib/paths.js";

/** POST /api/logout (`authApi.logout`, by its address: the shell loads no schemas). */
const logoutCall = typedAddress<typeof authApi.logout>(firstScreenCalls.logout);

/** POST /api/logout, then the sign-in screen. */
export function useLogout() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => call(logoutCall, {}),
    onSuccess: () => {
      notify.success("Logged out", "You have been successfully logged out.");
      signOut(client);
      navigate(paths.login);
    },
    onError: (error) => notify.error("Logout failed", errorMessage(error)),
  });
}
