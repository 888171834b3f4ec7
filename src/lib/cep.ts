// CEP: Brazilian postal code, 8 digits, shown as 00000-000.
// Kept here, not a library: two functions of a few lines; a CEP package would add bytes
// (and usually an address lookup service) for what a regular expression does.

export function cepDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, 8);
}

/** As-you-type: "013101" → "01310-1". */
export function formatCepTyping(input: string): string {
  const d = cepDigits(input);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}
