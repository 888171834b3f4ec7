// CEP: Brazilian postal code, 8 digits, shown as 00000-000.

export function cepDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, 8);
}

export function isValidCep(input: string): boolean {
  return /^\d{5}-?\d{3}$/.test(input.trim());
}

/** "01310100" → "01310-100"; anything that is not 8 digits comes back as typed. */
export function formatCep(input: string): string {
  const d = input.replace(/\D/g, '');
  return d.length === 8 ? `${d.slice(0, 5)}-${d.slice(5)}` : input;
}

/** As-you-type: "013101" → "01310-1". */
export function formatCepTyping(input: string): string {
  const d = cepDigits(input);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}
