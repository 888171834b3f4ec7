import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fingerprint of a pontuar body: SHA-256 of its canonical JSON without the attendant
 * password. The password is never stored, not even hashed (a 4-digit secret's hash is the
 * secret); a retry that only fixes the password is the same sale.
 */
export function postingFingerprint(body: Record<string, unknown>): string {
  const { senha_atendente: _password, ...rest } = body;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}
