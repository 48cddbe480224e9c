import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../lib/secret-box.js";

/** A browser that signed in to `userId` before (OWASP's device cookie): `<userId>.<random>.<HMAC>`. */
export interface KnownDevice {
  userId: number;
  device: string;
}

const macInput = (userId: number, device: string) => `device:${userId}.${device}`;

/** A new device token for a browser that just signed in. */
export function issueDeviceToken(secrets: SecretBox, userId: number): string {
  const device = randomBytes(16).toString("base64url");
  return `${userId}.${device}.${secrets.mac(macInput(userId, device))}`;
}

/** The account and device a cookie names, when its HMAC is ours; anything else (forged, damaged) is null. */
export function readDeviceToken(secrets: SecretBox, token: string | undefined): KnownDevice | null {
  if (!token || token.length > 200) return null;
  const [id, device, tag, ...rest] = token.split(".");
  if (!id || !device || !tag || rest.length > 0 || !/^\d{1,10}$/.test(id) || !/^[\w-]{16,64}$/.test(device)) return null;
  const userId = Number(id);
  return secrets.verifyMac(macInput(userId, device), tag) ? { userId, device } : null;
}
