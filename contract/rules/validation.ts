// Validation of what a client sends, with zod. Every rule of decisions.md lives here, with the
// message a cashier reads. Errors are reported per field path (`cliente.celular`,
// `itens.2.valor`), in the order of the fields below, so a 422 reports them all at once; the
// first one becomes the response's `message`. Each field says at most one thing (every check
// after the first failing one is skipped: `abort`).
//
// These schemas are the service's rules as the sandbox applies them (and the app server
// checks before it sends), not the browser's (src/api/requests.ts and the forms'): that
// independence is what lets the conformance tests catch drift. Only the limits, the patterns
// and the free-text rule both sides must agree on come from the shared wire modules.

import * as z from 'zod';
import * as wire from '../wire';
import * as fields from '../wire-fields';
import { formatReais } from './money';
import { parseDate } from './time';
import {
  blankOmitted,
  charCount,
  clean,
  emptyOmitted,
  type FieldErrors,
  finish,
  isPlainObject,
  ID_CLIENTE,
  type JsonObject,
  missingOr,
  nullish,
  optionalInteger,
  optionalText,
  rule,
  toFieldErrors,
  trimmedOrOmitted,
  type Validated,
} from './field-rules';

export {
  firstError,
  isPlainObject,
  type FieldErrors,
  type JsonObject,
  type Validated,
} from './field-rules';

// ---------------------------------------------------------------- customer data

const celularText = z
  .string({
    error: missingOr(
      'Informe o celular do cliente.',
      'O celular deve ser um texto no formato +5511987654321.',
    ),
  })
  .check(
    rule(
      (s) => fields.E164_PATTERN.test(s),
      'Celular inválido. Use o formato internacional, por exemplo +5511987654321.',
    ),
  );
const celular = z.preprocess(trimmedOrOmitted, celularText);
const celularIfSent = z.preprocess(trimmedOrOmitted, z.optional(celularText));

const cpf = z.preprocess(
  trimmedOrOmitted,
  z.optional(
    z.string({ error: 'O CPF deve ser um texto só com números.' }).check(
      rule((s) => fields.CPF_PATTERN.test(s), 'O CPF deve ter 11 dígitos, só números.'),
      rule(wire.isValidCpfDigits, 'CPF inválido. Confira os números.'),
    ),
  ),
);

const NASCIMENTO_INVALID = 'Data de nascimento inválida. Use o formato AAAA-MM-DD.';
const GENERO_INVALID = 'Gênero inválido. Use M ou F.';
const CEP_INVALID = 'O CEP deve ter 8 dígitos, só números.';

export interface CustomerInput {
  celular: string;
  cpf?: string | undefined;
  nome?: string | undefined;
  email?: string | undefined;
  data_nascimento?: string | undefined;
  genero?: fields.Genero | undefined;
  cep?: string | undefined;
  endereco?: string | undefined;
  bairro?: string | undefined;
  cidade?: string | undefined;
  estado?: string | undefined;
}

/**
 * The customer's fields. The schemas are built once (zod compiles an object's parser on its
 * first use: building one per request cost ~1 ms); what depends on the request (today's date,
 * the establishment's password) is checked after the parse and put in its field's place.
 */
const customerShape = {
  celular,
  cpf,
  nome: optionalText(
    fields.NOME_MAX,
    'O nome deve ser um texto.',
    `O nome pode ter no máximo ${fields.NOME_MAX} caracteres.`,
    clean('O nome tem caracteres inválidos.'),
  ),
  email: optionalText(
    fields.EMAIL_MAX,
    'O e-mail deve ser um texto.',
    `O e-mail pode ter no máximo ${fields.EMAIL_MAX} caracteres.`,
    clean('O e-mail tem caracteres inválidos.'),
    rule(
      (s) => fields.EMAIL_PATTERN.test(s),
      'E-mail inválido. Confira o endereço, por exemplo nome@exemplo.com.br.',
    ),
  ),
  data_nascimento: optionalText(
    10,
    'A data de nascimento deve ser um texto no formato AAAA-MM-DD.',
    NASCIMENTO_INVALID,
    rule((s) => (parseDate(s)?.year ?? 0) >= 1900, NASCIMENTO_INVALID),
  ),
  genero: optionalText(
    1,
    GENERO_INVALID,
    GENERO_INVALID,
    rule(fields.isGenero, GENERO_INVALID),
  ) as z.ZodType<fields.Genero | undefined>,
  cep: optionalText(
    8,
    'O CEP deve ser um texto com 8 dígitos, só números.',
    CEP_INVALID,
    rule((s) => fields.CEP_PATTERN.test(s), CEP_INVALID),
  ),
  endereco: optionalText(
    fields.ENDERECO_MAX,
    'O endereço deve ser um texto.',
    `O endereço pode ter no máximo ${fields.ENDERECO_MAX} caracteres.`,
    clean('O endereço tem caracteres inválidos.'),
  ),
  bairro: optionalText(
    fields.BAIRRO_MAX,
    'O bairro deve ser um texto.',
    `O bairro pode ter no máximo ${fields.BAIRRO_MAX} caracteres.`,
    clean('O bairro tem caracteres inválidos.'),
  ),
  cidade: optionalText(
    fields.CIDADE_MAX,
    'A cidade deve ser um texto.',
    `A cidade pode ter no máximo ${fields.CIDADE_MAX} caracteres.`,
    clean('A cidade tem caracteres inválidos.'),
  ),
  estado: optionalText(
    fields.ESTADO_MAX,
    'O estado deve ser um texto.',
    `O estado pode ter no máximo ${fields.ESTADO_MAX} caracteres.`,
    clean('O estado tem caracteres inválidos.'),
  ),
};
const customer = z.object(customerShape);
const CUSTOMER_FIELDS = Object.keys(customerShape);

/** A birth date after `today` (the date has passed its own checks). */
function bornInTheFuture(errors: FieldErrors, obj: unknown, path: string, today: string): void {
  if (errors[path] || !isPlainObject(obj)) return;
  const date = blankOmitted(obj.data_nascimento);
  if (typeof date === 'string' && date > today) {
    errors[path] = ['A data de nascimento não pode estar no futuro.'];
  }
}

/** Body of `POST /clientes/cadastrar`; a birth date must not be after `todayDate`. */
export function validateCadastrar(body: JsonObject, todayDate: string): Validated<CustomerInput> {
  const parsed = customer.safeParse(body);
  const errors = parsed.success ? {} : toFieldErrors(parsed.error.issues);
  bornInTheFuture(errors, body, 'data_nascimento', todayDate);
  return finish(parsed, errors, CUSTOMER_FIELDS);
}

// ---------------------------------------------------------------- pontuar

const item = z.object(
  {
    descricao: optionalText(
      fields.DESCRICAO_MAX,
      'A descrição do item deve ser um texto.',
      `A descrição do item pode ter no máximo ${fields.DESCRICAO_MAX} caracteres.`,
      clean('A descrição do item tem caracteres inválidos.'),
    ),
    complemento: optionalText(
      fields.COMPLEMENTO_MAX,
      'O complemento do item deve ser um texto.',
      `O complemento do item pode ter no máximo ${fields.COMPLEMENTO_MAX} caracteres.`,
      clean('O complemento do item tem caracteres inválidos.'),
    ),
    qtde: optionalInteger(
      1,
      fields.QTDE_MAX,
      'A quantidade deve ser um número inteiro maior que zero.',
    ),
    valor: optionalInteger(
      0,
      fields.ITEM_VALOR_MAX,
      'O valor do item deve ser um número inteiro de centavos, zero ou mais (R$ 10,50 = 1050).',
    ),
  },
  { error: 'Cada item deve ser um objeto.' },
);
export interface ItemInput {
  descricao?: string | undefined;
  complemento?: string | undefined;
  qtde?: number | undefined;
  valor?: number | undefined;
}

const VALOR_GASTO_TYPE = 'O valor gasto deve ser um número inteiro de centavos (R$ 10,50 = 1050).';

const valorGasto = z.preprocess(
  nullish,
  z.number({ error: missingOr('Informe o valor gasto.', VALOR_GASTO_TYPE) }).check(
    rule(Number.isSafeInteger, VALOR_GASTO_TYPE),
    rule(
      (n) => n >= wire.VALOR_GASTO_MIN && n <= wire.VALOR_GASTO_MAX,
      `O valor gasto deve ser de ${formatReais(wire.VALOR_GASTO_MIN)} a ${formatReais(wire.VALOR_GASTO_MAX)}.`,
    ),
  ),
);

/** The list is checked whole (a list, not too long) before any of its items. */
const itens = z.preprocess(
  nullish,
  z._default(
    z
      .array(z.unknown(), { error: 'Os itens devem ser uma lista.' })
      .check(
        rule(
          (list) => list.length <= wire.ITENS_MAX,
          `A compra pode ter no máximo ${wire.ITENS_MAX} itens.`,
        ),
      )
      .pipe(z.array(item)),
    [],
  ),
);

/** The attendant password of pontuar and resgatar-premio, before it is compared. */
const senhaAtendente = z.preprocess(
  emptyOmitted,
  z
    .string({
      error: missingOr('Informe a senha do atendente.', 'A senha do atendente deve ser um texto.'),
    })
    .check(
      rule(
        (s) => charCount(s) <= fields.SENHA_MAX,
        `A senha do atendente pode ter no máximo ${fields.SENHA_MAX} caracteres.`,
      ),
    ),
);

const WRONG_PASSWORD = 'Senha do atendente incorreta.';

const pontuar = z.object({
  valor_gasto: valorGasto,
  senha_atendente: senhaAtendente,
  cliente: z.preprocess(
    nullish,
    z.object(customerShape, {
      error: missingOr('Informe os dados do cliente.', 'Os dados do cliente devem ser um objeto.'),
    }),
  ),
  itens,
});
const PONTUAR_FIELDS = [
  'valor_gasto',
  'senha_atendente',
  'cliente',
  ...CUSTOMER_FIELDS.map((f) => `cliente.${f}`),
  'itens',
];

export interface PontuarInput {
  valor_gasto: number;
  senha_atendente: string;
  cliente: CustomerInput;
  itens: ItemInput[];
}

/**
 * Body of `POST /fidelidade/pontuar`. `checkPassword` tells whether the attendant password is
 * the establishment's; a wrong one is an error on `senha_atendente` like any other. An empty
 * `itens` list counts as no basket; a basket's items must add up to `valor_gasto`.
 */
export function validatePontuar(
  body: JsonObject,
  ctx: { today: string; checkPassword: (senha: string) => boolean },
): Validated<PontuarInput> {
  const parsed = pontuar.safeParse(body);
  const errors = parsed.success ? {} : toFieldErrors(parsed.error.issues);
  if (!errors.senha_atendente && !ctx.checkPassword(body.senha_atendente as string)) {
    errors.senha_atendente = [WRONG_PASSWORD];
  }
  if (!errors.cliente) bornInTheFuture(errors, body.cliente, 'cliente.data_nascimento', ctx.today);
  // A basket must add up to the amount; checked once both are valid, whatever else is wrong.
  const basketValid = !Object.keys(errors).some(
    (p) => p === 'valor_gasto' || p === 'itens' || p.startsWith('itens.'),
  );
  if (basketValid) {
    const valor = body.valor_gasto as number;
    const list = parsed.success ? parsed.data.itens : itens.parse(body.itens);
    const soma = list.reduce((acc, it) => acc + (it.valor ?? 0), 0);
    if (list.length > 0 && soma !== valor) {
      errors.itens = [
        `A soma dos itens (${formatReais(soma)}) difere do valor gasto (${formatReais(valor)}).`,
      ];
    }
  }
  return finish(parsed, errors, PONTUAR_FIELDS);
}

// ---------------------------------------------------------------- buscar

export type LookupKey =
  | { by: 'id_cliente'; value: number }
  | { by: 'cpf'; value: string }
  | { by: 'celular'; value: string };

const buscar = z.object({
  id_cliente: optionalInteger(1, Number.MAX_SAFE_INTEGER, ID_CLIENTE),
  cpf,
  celular: celularIfSent,
});

/** Body of `POST /clientes/buscar`: precedence id_cliente > cpf > celular. */
export function validateBuscar(body: JsonObject): Validated<LookupKey> {
  const parsed = buscar.safeParse(body);
  if (!parsed.success) return { ok: false, errors: toFieldErrors(parsed.error.issues) };
  const v = parsed;
  const { id_cliente, cpf: byCpf, celular: byPhone } = v.data;
  if (id_cliente !== undefined) return { ok: true, value: { by: 'id_cliente', value: id_cliente } };
  if (byCpf !== undefined) return { ok: true, value: { by: 'cpf', value: byCpf } };
  if (byPhone !== undefined) return { ok: true, value: { by: 'celular', value: byPhone } };
  const message = 'Informe o id do cliente, o CPF ou o celular para buscar.';
  return { ok: false, errors: { id_cliente: [message], cpf: [message], celular: [message] } };
}

// ---------------------------------------------------------------- resgatar-premio

const ID_PREMIO = 'O id do prêmio deve ser um número inteiro positivo.';

/** A required id sent as a JSON number, 1 or more. */
const requiredId = (missing: string, wrongType: string) =>
  z.preprocess(
    nullish,
    z
      .number({ error: missingOr(missing, wrongType) })
      .check(rule((n) => Number.isSafeInteger(n) && n >= 1, wrongType)),
  );

const resgatar = z.object({
  id_premio: requiredId('Informe o prêmio a resgatar.', ID_PREMIO),
  id_cliente: requiredId('Informe o cliente do prêmio.', ID_CLIENTE),
  // The service's developer documentation marks the password optional; this project always
  // sends it (decisions.md), so the sandbox requires it as pontuar does: a client that forgot
  // it is caught here rather than by a live service that might hand the reward over anyway.
  senha_atendente: senhaAtendente,
});
const RESGATAR_FIELDS = Object.keys(resgatar.shape);

export interface ResgatarInput {
  id_premio: number;
  id_cliente: number;
  senha_atendente: string;
}

/**
 * Body of `POST /fidelidade/resgatar-premio`: `id_premio` (the reward definition) and
 * `id_cliente` as JSON integers from 1, the attendant password checked by `checkPassword` as in
 * pontuar. Whether the customer exists and has the reward pending is the store's to say.
 */
export function validateResgatar(
  body: JsonObject,
  ctx: { checkPassword: (senha: string) => boolean },
): Validated<ResgatarInput> {
  const parsed = resgatar.safeParse(body);
  const errors = parsed.success ? {} : toFieldErrors(parsed.error.issues);
  if (!errors.senha_atendente && !ctx.checkPassword(body.senha_atendente as string)) {
    errors.senha_atendente = [WRONG_PASSWORD];
  }
  return finish(parsed, errors, RESGATAR_FIELDS);
}
