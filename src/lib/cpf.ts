// CPF: Brazil's individual taxpayer number, 11 digits, the last two are check digits.
// Kept here, not a library: the check is ten lines; validator packages cost the counter's
// first load more than they give. The check itself is the wire's, shared with the sandbox.
import { isValidCpfDigits } from '#contract/wire';

/** Digits only, at most 11. */
export function cpfDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, 11);
}

/** True for 11 digits (punctuation allowed) whose check digits match; all-same digits are invalid. */
export function isValidCpf(input: string): boolean {
  return isValidCpfDigits(input.replace(/[\s.-]/g, ''));
}

/** "52998224725" → "529.982.247-25". Anything that is not 11 digits comes back as typed. */
export function formatCpf(input: string): string {
  const d = input.replace(/\D/g, '');
  if (d.length !== 11) return input;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/** As-you-type: "5299822" → "529.982.2". */
export function formatCpfTyping(input: string): string {
  const d = cpfDigits(input);
  let out = d.slice(0, 3);
  if (d.length > 3) out += `.${d.slice(3, 6)}`;
  if (d.length > 6) out += `.${d.slice(6, 9)}`;
  if (d.length > 9) out += `-${d.slice(9)}`;
  return out;
}
