/**
 * Video embeds are limited to https players of known hosts (YouTube, Vimeo,
 * Loom) plus hosts an operator allows. Watch/share links are turned into the
 * player's embed address so an admin can paste what the browser shows.
 */
export const DEFAULT_EMBED_HOSTS = [
  "www.youtube.com",
  "youtube.com",
  "www.youtube-nocookie.com",
  "player.vimeo.com",
  "www.loom.com",
] as const;

export function toEmbedUrl(raw: string, extraHosts: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();

  if ((host === "www.youtube.com" || host === "youtube.com" || host === "m.youtube.com") && url.pathname === "/watch") {
    const id = url.searchParams.get("v");
    return id && /^[\w-]{6,20}$/.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
  }
  if (host === "youtu.be") {
    const id = url.pathname.slice(1);
    return /^[\w-]{6,20}$/.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
  }
  if (host === "vimeo.com" && /^\/\d+$/.test(url.pathname)) {
    return `https://player.vimeo.com/video${url.pathname}`;
  }
  if (host === "www.loom.com" && url.pathname.startsWith("/share/")) {
    return `https://www.loom.com/embed/${url.pathname.slice("/share/".length)}`;
  }
  const allowed = [...DEFAULT_EMBED_HOSTS, ...extraHosts.map((h) => h.toLowerCase())];
  return allowed.includes(host) ? url.toString() : null;
}
