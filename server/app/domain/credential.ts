/**
 * The terminal credential carried by the cookie: `<id>.<nonce>.<mac>`, where mac is
 * HMAC-SHA256(APP_SECRET, "<id>.<nonce>") in base64url. The signature rejects forged or
 * altered cookies before the store is asked; the store then checks the nonce is still the
 * terminal's current one and the terminal is not revoked (on every request).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

export function signCredential(secret: string, id: number, nonce: string): string {
  const payload = `${id}.${nonce}`;
  return `${payload}.${mac(secret, payload)}`;
}

function verifyCredential(
  secret: string,
  value: string | undefined,
): { id: number; nonce: string } | null {
  if (value === undefined) return null;
  const m = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (m === null) return null;
  const expected = Buffer.from(mac(secret, `${m[1]}.${m[2]}`));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { id: Number(m[1]), nonce: m[2]! };
}

/**
 * `verifyCredential` that remembers the cookies it found valid (at most `capacity`, then it
 * starts over), so a terminal's requests pay the HMAC once, not on every request (~30 us each
 * here). A cookie's validity never changes: it carries no expiry, and revocation is the
 * store's check, made on every request after this one. Forged cookies are not remembered.
 */
export function credentialVerifier(secret: string, capacity = 1024) {
  const valid = new Map<string, Readonly<{ id: number; nonce: string }>>();
  return (value: string | undefined): Readonly<{ id: number; nonce: string }> | null => {
    if (value === undefined) return null;
    const known = valid.get(value);
    if (known !== undefined) return known;
    const cred = verifyCredential(secret, value);
    if (cred === null) return null;
    if (valid.size >= capacity) valid.clear();
    valid.set(value, Object.freeze(cred));
    return cred;
  };
}
