/**
 * Text from a provider is stored (PostgreSQL refuses NUL), mirrored to Redis and streamed as JSON:
 * it loses NUL characters and unpaired UTF-16 surrogates here, before anything else sees it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whole text: drops NUL and lone surrogates, keeps everything else as it is. */
export function cleanProviderText(text: string): string {
  return text.replaceAll("\u0000", "").replace(LONE_SURROGATE, "");
}

/** Every string in a structured answer (keys too), cleaned the same way. */
export function cleanProviderValue<T>(value: T): T {
  if (typeof value === "string") return cleanProviderText(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanProviderValue(item)) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanProviderText(k), cleanProviderValue(v)])) as T;
  }
  return value;
}

/**
 * For a stream: a piece may end in the first half of a surrogate pair whose second half comes with the
 * next piece, so that half is held back until then (a stream that ends without it never shows it).
 */
export class StreamTextCleaner {
  private pending = "";

  push(piece: string): string {
    let text = this.pending + piece;
    this.pending = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.pending = text.slice(-1);
      text = text.slice(0, -1);
    }
    return cleanProviderText(text);
  }
}
