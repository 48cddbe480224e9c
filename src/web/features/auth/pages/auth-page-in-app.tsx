import { QueryAuthHost } from "../query-auth-host.js";
import { AuthPage } from "./auth-page.js";

/** /login and /auth drawn by the signed-in app (a redirect from a signed-in page, a sign-out, a link inside the app). */
export function AuthPageInApp() {
  return (
    <QueryAuthHost>
      <AuthPage />
    </QueryAuthHost>
  );
}
