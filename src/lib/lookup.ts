// Classifies what the cashier typed in the single search field: phone, CPF or customer id.
//
// Rules, in order:
//  1. Empty → invalid.
//  2. "#123", "id 123", "id:123", "ID: 123" → customer id.
//  3. Any letter (other than the id prefix) → invalid.
//  4. CPF punctuation ("529.982.247-25", or any '.') → CPF only (check digits must match).
//  5. Phone punctuation ('+', '(', ')' or spaces) → phone only.
//  6. Otherwise (digits, maybe a '-'), with 11 digits the text may be a mobile or a CPF:
//     a valid BR mobile wins ("11987654321" is a phone even if it also passed the CPF check,
//     because the phone is what customers usually say); if not a mobile but a valid CPF → CPF;
//     neither → invalid "CPF inválido: dígitos verificadores não conferem".
//  7. Other digit counts: 10, 12 or 13 digits are read as a phone (its reason when wrong);
//     fewer digits get a hint on how to search by id.
import { formatCpf, isValidCpf } from './cpf';
import { parsePhoneBR } from './phone';

export type LookupClassification =
  | { kind: 'phone'; celular: string; display: string }
  | { kind: 'cpf'; cpf: string; display: string }
  | { kind: 'id'; id_cliente: number; display: string }
  | { kind: 'invalid'; reason: string };

export const LOOKUP_REASONS = {
  empty: 'Digite o celular, o CPF ou o código do cliente.',
  letters: 'Use apenas números: celular, CPF ou # seguido do código do cliente.',
  cpfCheck: 'CPF inválido: dígitos verificadores não conferem',
  cpfLength: 'CPF incompleto: são 11 dígitos.',
  badId: 'Código do cliente inválido.',
  tooShort: 'Número curto demais. Para buscar pelo código do cliente, digite # antes (ex.: #123).',
} as const;

function classifyCpf(digits: string): LookupClassification {
  if (digits.length !== 11) return { kind: 'invalid', reason: LOOKUP_REASONS.cpfLength };
  if (!isValidCpf(digits)) return { kind: 'invalid', reason: LOOKUP_REASONS.cpfCheck };
  return { kind: 'cpf', cpf: digits, display: formatCpf(digits) };
}

function classifyPhone(text: string): LookupClassification {
  const phone = parsePhoneBR(text);
  return phone.ok
    ? { kind: 'phone', celular: phone.e164, display: phone.national }
    : { kind: 'invalid', reason: phone.reason };
}

export function classifyLookup(input: string): LookupClassification {
  const text = input.trim();
  if (text === '') return { kind: 'invalid', reason: LOOKUP_REASONS.empty };

  const id = /^(?:#|id\s*:?)\s*(\d+)$/i.exec(text);
  if (id) {
    const n = Number(id[1]);
    if (!Number.isSafeInteger(n) || n < 1) return { kind: 'invalid', reason: LOOKUP_REASONS.badId };
    return { kind: 'id', id_cliente: n, display: `#${n}` };
  }
  if (/[^\d\s()+.-]/.test(text)) return { kind: 'invalid', reason: LOOKUP_REASONS.letters };

  const digits = text.replace(/\D/g, '');
  if (text.includes('.')) return classifyCpf(digits);
  if (/[+()\s]/.test(text)) return classifyPhone(text);

  if (digits.length === 11) {
    const phone = parsePhoneBR(digits);
    if (phone.ok) return { kind: 'phone', celular: phone.e164, display: phone.national };
    return classifyCpf(digits);
  }
  if (digits.length < 8) return { kind: 'invalid', reason: LOOKUP_REASONS.tooShort };
  return classifyPhone(text);
}
