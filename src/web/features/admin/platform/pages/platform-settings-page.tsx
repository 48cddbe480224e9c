import { useQuery } from "@tanstack/react-query";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { adminPlatformSettingsQuery } from "../../common/api.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { EmailSettingsLink } from "../components/settings/email-settings-link.js";
import { PlatformSettingsForm } from "../components/settings/platform-settings-form.js";
import { SmtpSummary } from "../components/settings/smtp-summary.js";

/** /admin/settings: the product name, the default model and the platform-wide switches. */
export function PlatformSettingsPage() {
  usePageTitle("Platform Settings", "Admin");
  const settings = useQuery(adminPlatformSettingsQuery);
  return (
    <AdminShell>
      <div className="grid max-w-3xl gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">Platform Settings</h1>
            <p className="text-muted-foreground">Settings that apply to the whole platform and everyone on it.</p>
          </div>
          <EmailSettingsLink />
        </div>
        {settings.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading platform settings..." />
            <span aria-hidden="true">Loading platform settings...</span>
          </div>
        ) : settings.isError ? (
          <LoadFailed
            title="Failed to load platform settings."
            error={settings.error}
            advice="Check your connection, then try again."
            retrying={settings.isFetching}
            onRetry={() => void settings.refetch()}
          />
        ) : (
          <>
            <PlatformSettingsForm settings={settings.data} />
            <SmtpSummary settings={settings.data} />
          </>
        )}
      </div>
    </AdminShell>
  );
}
