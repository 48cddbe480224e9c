import { createHash } from "node:crypto";

/** The SHA-256 of a text, as hex: what a session or reset token is stored as, and an imported chat's key. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");
