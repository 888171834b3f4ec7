import { expect, test } from 'vitest';
import { credentialVerifier, signCredential } from './credential';

const SECRET = 'credential-tests-secret-0123456789abcdef';

test('a signed credential is accepted, again from memory; altered or forged ones never are', () => {
  const verify = credentialVerifier(SECRET);
  const cookie = signCredential(SECRET, 7, 'nonce-abcdefgh');
  expect(verify(cookie)).toEqual({ id: 7, nonce: 'nonce-abcdefgh' });
  expect(verify(cookie)).toEqual({ id: 7, nonce: 'nonce-abcdefgh' });
  // Another terminal id or nonce under the remembered mac, a flipped mac, another secret.
  const [, , mac] = cookie.split('.');
  expect(verify(`8.nonce-abcdefgh.${mac}`)).toBeNull();
  expect(verify(`7.nonce-abcdefgX.${mac}`)).toBeNull();
  expect(verify(cookie.slice(0, -1) + (cookie.endsWith('A') ? 'B' : 'A'))).toBeNull();
  expect(
    verify(signCredential('another-secret-0123456789abcdef0123', 7, 'nonce-abcdefgh')),
  ).toBeNull();
  expect(verify(undefined)).toBeNull();
  expect(verify('lixo')).toBeNull();
});

test('past its capacity it starts over and still verifies every cookie', () => {
  const verify = credentialVerifier(SECRET, 2);
  const cookies = [1, 2, 3, 4, 5].map((id) => signCredential(SECRET, id, `nonce-${id}-abcdefg`));
  for (const c of [...cookies, ...cookies]) expect(verify(c)?.id).toBe(Number(c.split('.')[0]));
});
