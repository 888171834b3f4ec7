/**
 * The attendant password of a kept sale, sealed at rest: AES-256-GCM under a key derived
 * (HKDF-SHA-256) from APP_SECRET, bound to the sale's key (a sealed password copied onto
 * another sale does not open). Only the deliverer opens it, just before sending; the journal
 * erases it once the sale is settled. The kiosk's staged sales use the same sealing under a key
 * of their own.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export type SealKey = Buffer & { readonly __sealKey: unique symbol };

/** The key for one use (`purpose` is HKDF's info: the contingency's and the kiosk's differ). */
export function sealKeyFrom(
  appSecret: string,
  purpose = 'contingency attendant password v1',
): SealKey {
  return Buffer.from(hkdfSync('sha256', appSecret, 'fidelidade-pdv', purpose, 32)) as SealKey;
}

/** The key sealing a kiosk's staged sale's attendant password (bound to the sale's id). */
export const kioskSealKeyFrom = (appSecret: string): SealKey =>
  sealKeyFrom(appSecret, 'kiosk staged sale attendant password v1');

export function seal(key: SealKey, plain: string, saleKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(saleKey));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${VERSION}.${Buffer.concat([iv, tag, data]).toString('base64url')}`;
}

/** The password, or null when it does not open (another key, another sale, tampered). */
export function unseal(key: SealKey, sealed: string, saleKey: string): string | null {
  const [version, payload] = sealed.split('.');
  if (version !== VERSION || payload === undefined) return null;
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(saleKey));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
