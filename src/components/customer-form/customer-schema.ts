// The customer-fields form schema: what a cashier types (all strings) → the wire's customer
// body (RegisterCustomerBody, also `cliente` in the points body). Rules mirror decisions.md;
// messages are written for the cashier. Only `celular` is required; every other field may be
// left blank, and a blank field is omitted from the request (the service fills its default).
import * as z from 'zod/mini';
import { lazySchema } from '#contract/lazy-schema';
import type { RegisterCustomerBody } from '@/api/requests';
import {
  BAIRRO_MAX,
  CIDADE_MAX,
  EMAIL_MAX,
  EMAIL_PATTERN,
  ENDERECO_MAX,
  isCleanText,
  isGenero,
  NOME_MAX,
} from '#contract/wire-fields';
import { cepDigits } from '@/lib/cep';
import { cpfDigits, isValidCpf } from '@/lib/cpf';
import { isNotFuture, isRealDate } from '@/lib/dates';
import { parsePhoneBR } from '@/lib/phone';
import { isUf } from '@/lib/uf';

export { BAIRRO_MAX, ENDERECO_MAX };

/** What the service stores when a field is left blank (shown to the cashier). */
export const SERVICE_DEFAULTS = {
  nome: 'CLIENTE DESCONHECIDO',
  email: 'invalido@invalido.com.br',
} as const;

export const CUSTOMER_MESSAGES = {
  cpfLength: 'CPF incompleto: são 11 dígitos.',
  cpfCheck: 'CPF inválido: dígitos verificadores não conferem.',
  email: 'E-mail inválido. Exemplo: nome@dominio.com.br',
  emailMax: `E-mail: no máximo ${EMAIL_MAX} caracteres.`,
  nome: `Nome: no máximo ${NOME_MAX} caracteres.`,
  cidade: `Cidade: no máximo ${CIDADE_MAX} caracteres.`,
  dateInvalid: 'Data inválida: informe dia, mês e ano de uma data que exista.',
  dateTooOld: 'Confira o ano: data anterior a 1900.',
  dateFuture: 'A data de nascimento não pode estar no futuro.',
  genero: 'Escolha Masculino, Feminino ou Não informado.',
  cep: 'CEP deve ter 8 dígitos, ex.: 01310-100.',
  endereco: `Endereço: no máximo ${ENDERECO_MAX} caracteres.`,
  bairro: `Bairro: no máximo ${BAIRRO_MAX} caracteres.`,
  estado: 'Escolha um dos 27 estados (UF).',
  // Odd text (control characters, NUL, lone surrogates, only zero-width): the service's words.
  nomeChars: 'O nome tem caracteres inválidos.',
  emailChars: 'O e-mail tem caracteres inválidos.',
  enderecoChars: 'O endereço tem caracteres inválidos.',
  bairroChars: 'O bairro tem caracteres inválidos.',
  cidadeChars: 'A cidade tem caracteres inválidos.',
} as const;

const blank = (v: string) => v.trim() === '';

/** Celular: required, any common Brazilian way of typing it; the message says what is wrong. */
const celular = lazySchema(() =>
  z.string().check(
    z.superRefine((value, ctx) => {
      const phone = parsePhoneBR(value);
      if (!phone.ok) ctx.addIssue({ code: 'custom', message: phone.reason, input: value });
    }),
  ),
);

const cpf = lazySchema(() =>
  z.string().check(
    z.superRefine((value, ctx) => {
      if (blank(value)) return;
      const digits = value.replace(/\D/g, '');
      if (/[^\d\s.-]/.test(value) || digits.length !== 11) {
        ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.cpfLength, input: value });
      } else if (!isValidCpf(digits)) {
        ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.cpfCheck, input: value });
      }
    }),
  ),
);

/** Counted as the service counts: characters of the trimmed text (an emoji is one). */
const maxChars = (max: number, message: string) =>
  z.refine<string>((v) => [...v.trim()].length <= max, message);

/**
 * Free text as the service accepts it (isCleanText, the same rule and message as the
 * service's): a blank field passes, as it is left out of the request.
 */
const cleanText = (message: string) =>
  z.refine<string>((v) => blank(v) || isCleanText(v.trim()), message);

const email = lazySchema(() =>
  z.string().check(
    maxChars(EMAIL_MAX, CUSTOMER_MESSAGES.emailMax),
    cleanText(CUSTOMER_MESSAGES.emailChars),
    z.refine((v) => blank(v) || EMAIL_PATTERN.test(v.trim()), CUSTOMER_MESSAGES.email),
  ),
);

/** The birth-date field gives `YYYY-MM-DD` for a real date, '' when empty, else the text typed. */
const dataNascimento = lazySchema(() =>
  z.string().check(
    z.superRefine((value, ctx) => {
      if (blank(value)) return;
      const v = value.trim();
      const message = !isRealDate(v)
        ? CUSTOMER_MESSAGES.dateInvalid
        : v < '1900-01-01'
          ? CUSTOMER_MESSAGES.dateTooOld
          : !isNotFuture(v)
            ? CUSTOMER_MESSAGES.dateFuture
            : null;
      if (message) ctx.addIssue({ code: 'custom', message, input: value });
    }),
  ),
);

const genero = lazySchema(() =>
  z.string().check(z.refine((v) => v === '' || isGenero(v), CUSTOMER_MESSAGES.genero)),
);

const cep = lazySchema(() =>
  z
    .string()
    .check(z.refine((v) => blank(v) || /^\d{5}-?\d{3}$/.test(v.trim()), CUSTOMER_MESSAGES.cep)),
);

const estado = lazySchema(() =>
  z.string().check(z.refine((v) => v === '' || isUf(v), CUSTOMER_MESSAGES.estado)),
);

const customerFieldsObject = lazySchema(() =>
  z.object({
    celular,
    cpf,
    nome: z
      .string()
      .check(maxChars(NOME_MAX, CUSTOMER_MESSAGES.nome), cleanText(CUSTOMER_MESSAGES.nomeChars)),
    email,
    data_nascimento: dataNascimento,
    genero,
    cep,
    endereco: z
      .string()
      .check(
        z.maxLength(ENDERECO_MAX, CUSTOMER_MESSAGES.endereco),
        cleanText(CUSTOMER_MESSAGES.enderecoChars),
      ),
    bairro: z
      .string()
      .check(
        z.maxLength(BAIRRO_MAX, CUSTOMER_MESSAGES.bairro),
        cleanText(CUSTOMER_MESSAGES.bairroChars),
      ),
    cidade: z
      .string()
      .check(
        maxChars(CIDADE_MAX, CUSTOMER_MESSAGES.cidade),
        cleanText(CUSTOMER_MESSAGES.cidadeChars),
      ),
    estado,
  }),
);

/** The form's values: exactly what the inputs hold, all strings ('' = left blank). */
export type CustomerFormValues = z.input<typeof customerFieldsObject>;
export type CustomerFieldName = keyof CustomerFormValues;

export const emptyCustomerValues: CustomerFormValues = {
  celular: '',
  cpf: '',
  nome: '',
  email: '',
  data_nascimento: '',
  genero: '',
  cep: '',
  endereco: '',
  bairro: '',
  cidade: '',
  estado: '',
};

/** The fields in the form's order (the schema is built only when a form validates). */
export const CUSTOMER_FIELD_NAMES = Object.keys(emptyCustomerValues) as CustomerFieldName[];

type LooseCustomerValues = { [K in CustomerFieldName]?: string | null | undefined };

type OptionalField = Exclude<keyof RegisterCustomerBody, 'celular'>;

const asTyped = (v: string) => v;
const upper = (v: string) => v.toUpperCase();

/**
 * Each optional field in the body's order, and its wire value from the trimmed text ('': left
 * out): cpf and cep as digits, genero only one the service knows, estado in capitals.
 */
const OPTIONAL_FIELDS: readonly (readonly [OptionalField, (typed: string) => string])[] = [
  ['cpf', cpfDigits],
  ['nome', asTyped],
  ['email', asTyped],
  ['data_nascimento', asTyped],
  ['genero', (v) => (isGenero(upper(v)) ? upper(v) : '')],
  ['cep', cepDigits],
  ['endereco', asTyped],
  ['bairro', asTyped],
  ['cidade', asTyped],
  ['estado', upper],
];

/**
 * Form values → wire body: blank fields omitted, text trimmed, celular as E.164, cpf and cep
 * as digits. Idempotent (a body it produced maps to itself). Expects values that passed
 * `customerFieldsSchema`; a celular that does not parse is sent as typed (the service answers).
 */
export function toRegisterBody(values: LooseCustomerValues): RegisterCustomerBody {
  const text = (v: string | null | undefined) => (v ?? '').trim();
  const phone = parsePhoneBR(text(values.celular));
  const body: RegisterCustomerBody = { celular: phone.ok ? phone.e164 : text(values.celular) };
  for (const [name, wire] of OPTIONAL_FIELDS) {
    const value = wire(text(values[name]));
    // The table keeps genero to the service's values; the rest are free text.
    if (value) (body as Record<OptionalField, string>)[name] = value;
  }
  return body;
}

/**
 * The one form schema for the customer fields. Input: `CustomerFormValues` (strings);
 * output: the wire body (`RegisterCustomerBody`). Celular is the only required field, so the
 * same schema serves the registration form and the points form's `cliente` for a new customer:
 * `z.object({ cliente: customerFieldsSchema, ... })`.
 */
export const customerFieldsSchema = lazySchema(() =>
  z.pipe(
    customerFieldsObject,
    z.transform((values: CustomerFormValues) => toRegisterBody(values)),
  ),
);

/**
 * A service error path → the form field that owns it, or null when no field does.
 * `celular`, `cliente.celular` → 'celular'; `estado`, `uf`, `cliente.estado` → 'estado'.
 */
export function serverPathToField(path: string): CustomerFieldName | null {
  const key = path.replace(/^cliente\./, '');
  if (key === 'uf') return 'estado';
  return (CUSTOMER_FIELD_NAMES as string[]).includes(key) ? (key as CustomerFieldName) : null;
}
