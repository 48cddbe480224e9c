import type { AdminPlatformSettings } from "../../../../../../shared/contracts/platform-settings.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </div>
  );
}

/** Read only: how mail goes out. The SMTP password itself never reaches the browser, only whether one is stored. */
export function SmtpSummary({ settings }: { settings: AdminPlatformSettings }) {
  const configured = !!settings.smtpHost;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email delivery</CardTitle>
        <CardDescription>{configured ? "Mail goes out through this SMTP server." : "No SMTP server is configured yet."}</CardDescription>
      </CardHeader>
      {configured ? (
        <CardContent>
          <dl className="grid gap-2 text-sm">
            <Row label="Server" value={`${settings.smtpHost}:${settings.smtpPort}${settings.smtpSecure ? " (SSL/TLS)" : ""}`} />
            <Row label="Username" value={settings.smtpUser ?? "Not set"} />
            <Row label="Password" value={settings.smtpPassSet ? "Stored (hidden)" : "Not set"} />
            <Row
              label="From"
              value={
                settings.smtpFromEmail
                  ? `${settings.smtpFromName ? `${settings.smtpFromName} ` : ""}<${settings.smtpFromEmail}>`
                  : "Not set"
              }
            />
          </dl>
        </CardContent>
      ) : null}
    </Card>
  );
}
