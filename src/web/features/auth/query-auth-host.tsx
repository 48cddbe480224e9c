import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { useLocation } from "wouter";
import { paymentSettingsQuery, publicPlatformSettingsQuery } from "../../domain/public-queries.js";
import { signIn } from "../../domain/session.js";
import { notify } from "../../lib/notify.js";
import { type AuthHost, AuthHostContext } from "./auth-host.js";

/** The sign-in screens inside the signed-in app: the cache learns the user, and the route guard moves on. */
export function QueryAuthHost({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const host = useMemo<AuthHost>(
    () => ({
      signedIn(user, welcome) {
        notify.success(welcome.title, welcome.description);
        signIn(client, user);
      },
      settingsChanged(which) {
        const query = which === "platform" ? publicPlatformSettingsQuery : paymentSettingsQuery;
        void client.invalidateQueries({ queryKey: query.queryKey });
      },
      open(path) {
        navigate(path);
      },
    }),
    [client, navigate],
  );
  return <AuthHostContext value={host}>{children}</AuthHostContext>;
}
