import { Mail } from "lucide-react";
import { Button } from "../../../../components/ui/button.js";

/**
 * Spec 002: an Email Settings button leading to /admin/email-settings. That page is not built yet, so the
 * button is shown disabled with "Coming soon" rather than leading to a page that does not exist.
 */
export function EmailSettingsLink() {
  return (
    <div className="grid justify-items-start gap-1 sm:justify-items-end">
      <Button variant="outline" disabled aria-describedby="email-settings-soon">
        <Mail aria-hidden="true" />
        Email Settings
      </Button>
      <span id="email-settings-soon" className="text-xs text-muted-foreground">
        Coming soon
      </span>
    </div>
  );
}
