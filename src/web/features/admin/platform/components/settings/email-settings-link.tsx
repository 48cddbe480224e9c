import { Mail } from "lucide-react";
import { Link } from "wouter";
import { Button } from "../../../../../components/ui/button.js";
import { paths } from "../../../../../lib/paths.js";

/** Platform Settings has an Email Settings button leading to /admin/email-settings. */
export function EmailSettingsLink() {
  return (
    <Button asChild variant="outline">
      <Link href={paths.adminEmailSettings}>
        <Mail aria-hidden="true" />
        Email Settings
      </Link>
    </Button>
  );
}
