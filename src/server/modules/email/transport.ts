import type { Transporter } from "nodemailer";
import { sliceWhole } from "../../../shared/cut-text.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { EffectivePlatformSettings } from "../platform-settings/reader.js";

/** Each SMTP step waits this long at most: a dead server costs a send ~10 s, never a stuck worker. */
export const SMTP_TIMEOUT_MS = 10_000;

type SmtpSettings = Pick<
  EffectivePlatformSettings,
  "smtpHost" | "smtpPort" | "smtpSecure" | "smtpUser" | "smtpPassEncrypted" | "smtpFromEmail" | "smtpFromName"
>;

/** SMTP counts as configured once a host and a from address are set; until then mail stays in the test inbox. */
export function smtpConfigured(settings: Pick<SmtpSettings, "smtpHost" | "smtpFromEmail">): boolean {
  return Boolean(settings.smtpHost?.trim() && settings.smtpFromEmail?.trim());
}

/** `"Lumora" <noreply@example.com>`, quoted by nodemailer (a name cannot add a header). */
export function fromAddress(settings: Pick<SmtpSettings, "smtpFromEmail" | "smtpFromName">): string | { name: string; address: string } {
  const address = settings.smtpFromEmail?.trim() ?? "";
  const name = settings.smtpFromName?.replace(/[\r\n]+/g, " ").trim();
  return name ? { name, address } : address;
}

/** "587" → 587; anything else falls back to the product's default port. */
export function smtpPortNumber(port: string | number | null | undefined): number {
  const value = typeof port === "number" ? port : Number.parseInt(String(port ?? "").trim(), 10);
  return Number.isInteger(value) && value > 0 && value <= 65_535 ? value : 587;
}

export interface SmtpConnection {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/**
 * A nodemailer transport for these settings (no pooling: the worker opens one per batch and closes it).
 * nodemailer loads on the first send, not with the server: most instances run with mail in the test inbox.
 */
export async function createTransport(connection: SmtpConnection): Promise<Transporter> {
  const { default: nodemailer } = await import("nodemailer");
  return nodemailer.createTransport({
    host: connection.host,
    port: connection.port,
    secure: connection.secure,
    // Off this machine the password never crosses the network in clear: STARTTLS is required when the
    // connection does not start with TLS (a relay on loopback may go without).
    requireTLS: !connection.secure && !LOOPBACK.has(connection.host.trim().toLowerCase()),
    auth: connection.user ? { user: connection.user, pass: connection.password ?? "" } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    dnsTimeout: SMTP_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
}

export class SmtpPasswordUnreadable extends Error {
  constructor() {
    super("The stored SMTP password cannot be read (the app secret changed): enter the SMTP password again.");
  }
}

/** The stored settings as a connection (password decrypted), or null when SMTP is not configured. */
export function connectionFromSettings(settings: SmtpSettings, secrets: SecretBox): SmtpConnection | null {
  if (!smtpConfigured(settings)) return null;
  let password: string | null = null;
  if (settings.smtpPassEncrypted) {
    try {
      password = secrets.open(settings.smtpPassEncrypted);
    } catch {
      throw new SmtpPasswordUnreadable();
    }
  }
  return {
    host: settings.smtpHost?.trim() ?? "",
    port: smtpPortNumber(settings.smtpPort),
    secure: settings.smtpSecure,
    user: settings.smtpUser?.trim() || null,
    password,
  };
}

interface NodemailerError {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

const TLS_PATTERN = /tls|ssl|certificate|self[- ]signed|wrong version number|handshake|cert_|unable to verify/i;

/**
 * A nodemailer failure as a reason an admin can act on (used by the worker's last_error and by the SMTP
 * test). `permanent` is true when retrying cannot help (the server refused the recipient for good).
 */
export function describeSmtpError(error: unknown, target?: { host: string; port: number }): { reason: string; permanent: boolean } {
  if (error instanceof SmtpPasswordUnreadable) return { reason: error.message, permanent: false };
  const e = (error ?? {}) as NodemailerError;
  const message = typeof e.message === "string" ? e.message : String(error);
  const where = target ? ` (${target.host}:${target.port})` : "";
  const code = e.code ?? "";
  if (code === "EAUTH" || e.responseCode === 535 || e.responseCode === 534) {
    return { reason: "SMTP authentication failed: check the SMTP username and password.", permanent: false };
  }
  if (/ECONNREFUSED/.test(message) || code === "ECONNREFUSED") {
    return { reason: `Connection refused${where}: check the host and port, and that the SMTP server is running.`, permanent: false };
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(message) || code === "EDNS") {
    return { reason: `SMTP host not found${where}: check the host name.`, permanent: false };
  }
  if (code === "ETIMEDOUT" || /timed? ?out|timeout/i.test(message)) {
    return { reason: `The SMTP server did not answer in time${where}: check the host, the port and the firewall.`, permanent: false };
  }
  if (code === "ETLS" || TLS_PATTERN.test(message)) {
    return {
      reason: `TLS failed${where}: check the Secure switch (on for port 465, off for 587 and 25) and the server's certificate.`,
      permanent: false,
    };
  }
  if (/ECONNRESET|EPIPE|socket hang up/i.test(message)) {
    return { reason: `The SMTP server closed the connection${where}.`, permanent: false };
  }
  const response = oneLine(e.response ?? message);
  if (code === "EENVELOPE" && e.responseCode && e.responseCode >= 500) {
    return { reason: `The SMTP server refused the message: ${response}`, permanent: true };
  }
  if (e.responseCode && e.responseCode >= 500 && e.command === "DATA") {
    return { reason: `The SMTP server refused the message: ${response}`, permanent: true };
  }
  return { reason: `SMTP error: ${response}`, permanent: false };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${sliceWhole(flat, 297)}...` : flat;
}
