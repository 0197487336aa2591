import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature of a request's body. */
export const SIGNATURE_HEADER = 'X-Svc-Signature';

/** `sha256=<hex>`: the HMAC-SHA256 of the raw body with the secret (docs/notifications.md, "Delivery"). */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `signature` is the signature of `body` with `secret` (compared in constant time). */
export function verifySignature(body: string, secret: string, signature: string): boolean {
  const want = Buffer.from(signBody(body, secret));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}
