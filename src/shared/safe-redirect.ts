/**
 * Returns `target` when it is a same-site path ("/chat/1?x=y"), otherwise `fallback`.
 * Refuses absolute URLs, protocol-relative "//host", backslash tricks and control
 * characters, so a `?next=` value can never send a person to another site.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = "/"): string {
  if (!target || typeof target !== "string") return fallback;
  if (target.length > 2048) return fallback;
  if (!target.startsWith("/")) return fallback;
  if (target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://same.invalid");
    if (url.host !== "same.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
