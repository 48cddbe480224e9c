import { useQuery } from "@tanstack/react-query";
import { FileText, Inbox, Server } from "lucide-react";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../../components/ui/tabs.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { adminPlatformSettingsQuery } from "../../common/api.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { OutboxPanel } from "../components/outbox/outbox-panel.js";
import { SmtpForm } from "../components/smtp/smtp-form.js";
import { TemplatesPanel } from "../components/templates/templates-panel.js";

function SmtpTab() {
  const settings = useQuery(adminPlatformSettingsQuery);
  if (settings.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner label="Loading SMTP settings..." />
        <span aria-hidden="true">Loading SMTP settings...</span>
      </div>
    );
  }
  if (settings.isError) {
    return (
      <LoadFailed
        title="Failed to load the SMTP settings."
        error={settings.error}
        advice="Check your connection and retry."
        retrying={settings.isFetching}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  return <SmtpForm settings={settings.data} />;
}

/** /admin/email-settings: SMTP Configuration and Email Templates (docs/product.md, Admin back office), and the outbox. */
export function EmailSettingsPage() {
  usePageTitle("Email Settings", "Admin");
  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Email Settings</h1>
          <p className="text-muted-foreground">The mail server and the emails the platform sends.</p>
        </div>
        <Tabs defaultValue="smtp">
          <TabsList className="sm:w-auto sm:justify-start [&_button]:px-2 sm:[&_button]:px-3 [&_svg]:hidden sm:[&_svg]:block">
            <TabsTrigger value="smtp">
              <Server aria-hidden="true" />
              <span className="sm:hidden">SMTP</span>
              <span className="hidden sm:inline">SMTP Configuration</span>
            </TabsTrigger>
            <TabsTrigger value="templates">
              <FileText aria-hidden="true" />
              <span className="sm:hidden">Templates</span>
              <span className="hidden sm:inline">Email Templates</span>
            </TabsTrigger>
            <TabsTrigger value="outbox">
              <Inbox aria-hidden="true" />
              Outbox
            </TabsTrigger>
          </TabsList>
          {/* SMTP and Templates stay mounted while another tab shows, so what was typed there is kept. */}
          <TabsContent value="smtp" className="mt-6" keepMounted>
            <SmtpTab />
          </TabsContent>
          <TabsContent value="templates" className="mt-6" keepMounted>
            <TemplatesPanel />
          </TabsContent>
          <TabsContent value="outbox" className="mt-6">
            <OutboxPanel />
          </TabsContent>
        </Tabs>
      </div>
    </AdminShell>
  );
}
