import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SecretBox } from "../../lib/secret-box.js";

/** The httpOnly cookie that binds a registration checkout to the browser that started it. */
export const CHECKOUT_COOKIE = "checkout";
const MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** A new binding: a random nonce kept with the checkout row. */
export const newBindingNonce = () => randomBytes(18).toString("base64url");

/** `<id>.<hmac(id:nonce)>`: the server recomputes it from the row, so nothing secret is stored. */
export function bindingToken(secrets: SecretBox, checkout: { id: number; bindingNonce: string }): string {
  return `${checkout.id}.${secrets.mac(`checkout:${checkout.id}:${checkout.bindingNonce}`)}`;
}

/** The cookie's value, when it has the shape of a binding token. */
export function checkoutToken(request: FastifyRequest): string | null {
  const value = request.cookies[CHECKOUT_COOKIE];
  return value && /^\d{1,10}\.[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

/** The checkout id a token claims (its tag is checked against the row with `tokenBindsCheckout`). */
export function tokenCheckoutId(token: string | null): number | null {
  const id = token ? Number(token.split(".")[0]) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** Whether the token is the binding of this checkout row (constant-time). */
export function tokenBindsCheckout(secrets: SecretBox, token: string | null, checkout: { id: number; bindingNonce: string }): boolean {
  if (!token) return false;
  const [id, tag] = token.split(".");
  return Number(id) === checkout.id && tag !== undefined && secrets.verifyMac(`checkout:${checkout.id}:${checkout.bindingNonce}`, tag);
}

export function setCheckoutCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CHECKOUT_COOKIE, token, {
    path: "/api/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    maxAge: MAX_AGE_SECONDS,
  });
}

export function clearCheckoutCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(CHECKOUT_COOKIE, { path: "/api/", httpOnly: true, sameSite: "lax", secure: request.protocol === "https" });
}
