/**
 * The web route of the email preview page (admins only), and where an admin reads one stored email (a test
 * send's `previewUrl`, the outbox's preview links). Plain strings, no schemas: the router loads it on every
 * first screen.
 */
export const EMAIL_PREVIEW_ROUTE = "/admin/email-preview/:id";
export function emailPreviewPath(id: number): string {
  return `/admin/email-preview/${id}`;
}
