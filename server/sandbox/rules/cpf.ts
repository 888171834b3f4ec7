import { randomBytes } from 'node:crypto';

// The CPF check itself is the wire's (contract/wire.ts), shared with the browser and e2e.
export { cpfCheckDigits } from '#contract/wire';

/** The CPF stand-in the service stores when none is given: a random 32-hex-digit hash. */
export function randomCpfHash(): string {
  return randomBytes(16).toString('hex');
}
