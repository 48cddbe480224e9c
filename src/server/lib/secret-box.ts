import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * AES-256-GCM for secrets kept in the database (provider API keys, the SMTP
 * password). The key is derived from APP_SECRET; on the embedded database a
 * random secret is generated once into DATA_DIR so a first run needs no set-up.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly macKey: Buffer;
  constructor(appSecret: string) {
    this.key = createHash("sha256").update(`secret-box:${appSecret}`).digest();
    this.macKey = createHash("sha256").update(`mac:${appSecret}`).digest();
  }

  /** HMAC-SHA256 of `text` (base64url): a value the server can recompute and check, without storing it. */
  mac(text: string): string {
    return createHmac("sha256", this.macKey).update(text).digest("base64url");
  }

  /** Whether `tag` is `mac(text)`, compared in constant time. */
  verifyMac(text: string, tag: string): boolean {
    const expected = Buffer.from(this.mac(text));
    const given = Buffer.from(tag);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unknown secret format");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  }
}

/** APP_SECRET, or the one generated into DATA_DIR/app-secret on the first embedded run. */
export function resolveAppSecret(options: { appSecret?: string; dataDir: string; usingEmbeddedDb: boolean }): string {
  if (options.appSecret) return options.appSecret;
  if (!options.usingEmbeddedDb) {
    throw new Error("APP_SECRET is required with DATABASE_URL: every instance must share it (at least 32 characters).");
  }
  const file = path.resolve(options.dataDir, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
