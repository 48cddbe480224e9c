import { Lock } from "lucide-react";
import { REGISTRATION_CLOSED } from "../../../../shared/contracts/platform-settings.js";
import { Button } from "../../../components/ui/button.js";

/** The Register tab while an admin has closed registration (Platform Settings); the server refuses sign-ups too. */
export function RegistrationClosed({ onLogin }: { onLogin: () => void }) {
  return (
    <div role="status" className="grid justify-items-center gap-3 rounded-lg border bg-muted/40 px-4 py-8 text-center">
      <span className="flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Lock className="size-5" aria-hidden="true" />
      </span>
      <p className="font-semibold">{REGISTRATION_CLOSED}</p>
      <p className="max-w-sm text-sm text-muted-foreground">
        New accounts cannot be created right now. If you already have an account, sign in; otherwise ask an administrator.
      </p>
      <Button variant="outline" onClick={onLogin}>
        Go to Login
      </Button>
    </div>
  );
}
