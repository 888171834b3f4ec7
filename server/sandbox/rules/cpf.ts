import { randomBytes } from 'node:crypto';

/** The two check digits of a CPF's first nine digits. */
export function cpfCheckDigits(nineDigits: string): string {
  if (!/^\d{9}$/.test(nineDigits)) throw new RangeError('nine digits expected');
  const digits = [...nineDigits].map(Number);
  const next = (ds: number[]): number => {
    const weightStart = ds.length + 1;
    const sum = ds.reduce((acc, d, i) => acc + d * (weightStart - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = next(digits);
  const second = next([...digits, first]);
  return `${first}${second}`;
}

/** 11 digits, not all equal, with valid check digits. */
export function isValidCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  if (/^(\d)\1{10}$/.test(value)) return false;
  return cpfCheckDigits(value.slice(0, 9)) === value.slice(9);
}

/** The CPF stand-in the service stores when none is given: a random 32-hex-digit hash. */
export function randomCpfHash(): string {
  return randomBytes(16).toString('hex');
}
