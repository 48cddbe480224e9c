import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { authApi } from "../../../shared/contracts/auth.js";
import { signOut } from "../../domain/session.js";
import { call, errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { paths } from "../../lib/paths.js";

/** POST /api/logout, then the sign-in screen. */
export function useLogout() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => call(authApi.logout, {}),
    onSuccess: () => {
      notify.success("Logged out", "You have been successfully logged out.");
      signOut(client);
      navigate(paths.login);
    },
    onError: (error) => notify.error("Logout failed", errorMessage(error)),
  });
}
