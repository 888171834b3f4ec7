// Validation of what a client sends. Every rule of decisions.md lives here, with the message a
// cashier reads. Errors are collected per field path (`cliente.celular`, `itens.2.valor`) so a
// 422 reports them all at once; the first one becomes the response's `message`.

import * as wire from '../../../src/api/wire';
import * as fields from '../../../src/api/wire-fields';
import { isValidCpf } from './cpf';
import { formatReais } from './money';
import { CATEGORIES, STATUSES, type Category, type Status } from './rewards';
import { parseDate } from './time';

export type FieldErrors = Record<string, string[]>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export class ErrorBag {
  readonly errors: FieldErrors = {};

  add(path: string, message: string): void {
    (this.errors[path] ??= []).push(message);
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** The first message of a set of field errors (the response's `message`). */
export function firstError(errors: FieldErrors): string {
  for (const list of Object.values(errors)) {
    if (list[0] !== undefined) return list[0];
  }
  return 'Dados inválidos.';
}

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property only: a body can never reach `Object.prototype` through a field name. */
function field(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

const charCount = (s: string): number => [...s].length;

// Limits and patterns the browser must agree on come from the wire module; the messages
// below are the sandbox's own.
const LIMITS = {
  valorGastoMin: wire.VALOR_GASTO_MIN,
  valorGastoMax: wire.VALOR_GASTO_MAX,
  itemValorMax: fields.ITEM_VALOR_MAX,
  qtdeMax: fields.QTDE_MAX,
  itensMax: wire.ITENS_MAX,
  nome: fields.NOME_MAX,
  email: fields.EMAIL_MAX,
  endereco: fields.ENDERECO_MAX,
  bairro: fields.BAIRRO_MAX,
  cidade: fields.CIDADE_MAX,
  estado: fields.ESTADO_MAX,
  descricao: fields.DESCRICAO_MAX,
  complemento: fields.COMPLEMENTO_MAX,
  senha: fields.SENHA_MAX,
  q: fields.Q_MAX,
  perPageMax: fields.PER_PAGE_MAX,
  perPageDefault: fields.PER_PAGE_DEFAULT,
  pageMax: 1_000_000_000,
} as const;
const E164 = fields.E164_PATTERN;
const EMAIL = fields.EMAIL_PATTERN;

interface TextRule {
  max: number;
  typeMessage: string;
  maxMessage: string;
  trim?: boolean;
}

/**
 * An optional text field: absent, `null` or blank counts as omitted (undefined). Anything
 * but a string, or a string over the limit, is an error on the path.
 */
function optionalText(
  obj: JsonObject,
  key: string,
  path: string,
  rule: TextRule,
  bag: ErrorBag,
): string | undefined {
  const raw = field(obj, key);
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') {
    bag.add(path, rule.typeMessage);
    return undefined;
  }
  const value = rule.trim === false ? raw : raw.trim();
  if (value === '') return undefined;
  if (charCount(value) > rule.max) {
    bag.add(path, rule.maxMessage);
    return undefined;
  }
  return value;
}

/** An optional integer sent as a JSON number. */
function optionalInteger(
  obj: JsonObject,
  key: string,
  path: string,
  min: number,
  max: number,
  message: string,
  bag: ErrorBag,
): number | undefined {
  const raw = field(obj, key);
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < min || raw > max) {
    bag.add(path, message);
    return undefined;
  }
  return raw;
}

// ---------------------------------------------------------------- customer data

export interface CustomerInput {
  celular: string;
  cpf?: string | undefined;
  nome?: string | undefined;
  email?: string | undefined;
  data_nascimento?: string | undefined;
  genero?: 'M' | 'F' | undefined;
  cep?: string | undefined;
  endereco?: string | undefined;
  bairro?: string | undefined;
  cidade?: string | undefined;
  estado?: string | undefined;
}

const join = (prefix: string, key: string): string => (prefix ? `${prefix}.${key}` : key);

function celularField(
  obj: JsonObject,
  path: string,
  bag: ErrorBag,
  required: boolean,
): string | undefined {
  const raw = field(obj, 'celular');
  if (raw === undefined || raw === null || raw === '') {
    if (required) bag.add(path, 'Informe o celular do cliente.');
    return undefined;
  }
  if (typeof raw !== 'string') {
    bag.add(path, 'O celular deve ser um texto no formato +5511987654321.');
    return undefined;
  }
  const value = raw.trim();
  if (!E164.test(value)) {
    bag.add(path, 'Celular inválido. Use o formato internacional, por exemplo +5511987654321.');
    return undefined;
  }
  return value;
}

function cpfField(obj: JsonObject, path: string, bag: ErrorBag): string | undefined {
  const raw = field(obj, 'cpf');
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') {
    bag.add(path, 'O CPF deve ser um texto só com números.');
    return undefined;
  }
  const value = raw.trim();
  if (!/^\d{11}$/.test(value)) {
    bag.add(path, 'O CPF deve ter 11 dígitos, só números.');
    return undefined;
  }
  if (!isValidCpf(value)) {
    bag.add(path, 'CPF inválido. Confira os números.');
    return undefined;
  }
  return value;
}

function customerFields(
  obj: JsonObject,
  prefix: string,
  bag: ErrorBag,
  todayDate: string,
): CustomerInput | undefined {
  const celular = celularField(obj, join(prefix, 'celular'), bag, true);
  const cpf = cpfField(obj, join(prefix, 'cpf'), bag);
  const nome = optionalText(
    obj,
    'nome',
    join(prefix, 'nome'),
    {
      max: LIMITS.nome,
      typeMessage: 'O nome deve ser um texto.',
      maxMessage: `O nome pode ter no máximo ${LIMITS.nome} caracteres.`,
    },
    bag,
  );
  const email = optionalText(
    obj,
    'email',
    join(prefix, 'email'),
    {
      max: LIMITS.email,
      typeMessage: 'O e-mail deve ser um texto.',
      maxMessage: `O e-mail pode ter no máximo ${LIMITS.email} caracteres.`,
    },
    bag,
  );
  if (email !== undefined && !EMAIL.test(email)) {
    bag.add(
      join(prefix, 'email'),
      'E-mail inválido. Confira o endereço, por exemplo nome@exemplo.com.br.',
    );
  }

  const nascimentoPath = join(prefix, 'data_nascimento');
  const nascimento = optionalText(
    obj,
    'data_nascimento',
    nascimentoPath,
    {
      max: 10,
      typeMessage: 'A data de nascimento deve ser um texto no formato AAAA-MM-DD.',
      maxMessage: 'Data de nascimento inválida. Use o formato AAAA-MM-DD.',
    },
    bag,
  );
  let dataNascimento: string | undefined;
  if (nascimento !== undefined) {
    const d = parseDate(nascimento);
    if (!d || d.year < 1900) {
      bag.add(nascimentoPath, 'Data de nascimento inválida. Use o formato AAAA-MM-DD.');
    } else if (nascimento > todayDate) {
      bag.add(nascimentoPath, 'A data de nascimento não pode estar no futuro.');
    } else {
      dataNascimento = nascimento;
    }
  }

  const generoPath = join(prefix, 'genero');
  const generoRaw = optionalText(
    obj,
    'genero',
    generoPath,
    {
      max: 1,
      typeMessage: 'Gênero inválido. Use M ou F.',
      maxMessage: 'Gênero inválido. Use M ou F.',
    },
    bag,
  );
  let genero: 'M' | 'F' | undefined;
  if (generoRaw === 'M' || generoRaw === 'F') genero = generoRaw;
  else if (generoRaw !== undefined) bag.add(generoPath, 'Gênero inválido. Use M ou F.');

  const cepPath = join(prefix, 'cep');
  const cepRaw = optionalText(
    obj,
    'cep',
    cepPath,
    {
      max: 8,
      typeMessage: 'O CEP deve ser um texto com 8 dígitos, só números.',
      maxMessage: 'O CEP deve ter 8 dígitos, só números.',
    },
    bag,
  );
  let cep: string | undefined;
  if (cepRaw !== undefined) {
    if (/^\d{8}$/.test(cepRaw)) cep = cepRaw;
    else bag.add(cepPath, 'O CEP deve ter 8 dígitos, só números.');
  }

  const endereco = optionalText(
    obj,
    'endereco',
    join(prefix, 'endereco'),
    {
      max: LIMITS.endereco,
      typeMessage: 'O endereço deve ser um texto.',
      maxMessage: `O endereço pode ter no máximo ${LIMITS.endereco} caracteres.`,
    },
    bag,
  );
  const bairro = optionalText(
    obj,
    'bairro',
    join(prefix, 'bairro'),
    {
      max: LIMITS.bairro,
      typeMessage: 'O bairro deve ser um texto.',
      maxMessage: `O bairro pode ter no máximo ${LIMITS.bairro} caracteres.`,
    },
    bag,
  );
  const cidade = optionalText(
    obj,
    'cidade',
    join(prefix, 'cidade'),
    {
      max: LIMITS.cidade,
      typeMessage: 'A cidade deve ser um texto.',
      maxMessage: `A cidade pode ter no máximo ${LIMITS.cidade} caracteres.`,
    },
    bag,
  );
  const estado = optionalText(
    obj,
    'estado',
    join(prefix, 'estado'),
    {
      max: LIMITS.estado,
      typeMessage: 'O estado deve ser um texto.',
      maxMessage: `O estado pode ter no máximo ${LIMITS.estado} caracteres.`,
    },
    bag,
  );

  if (celular === undefined) return undefined;
  return {
    celular,
    cpf,
    nome,
    email,
    data_nascimento: dataNascimento,
    genero,
    cep,
    endereco,
    bairro,
    cidade,
    estado,
  };
}

/** Body of `POST /clientes/cadastrar`. */
export function validateCadastrar(body: JsonObject, todayDate: string): Validated<CustomerInput> {
  const bag = new ErrorBag();
  const value = customerFields(body, '', bag, todayDate);
  return value && bag.empty ? { ok: true, value } : { ok: false, errors: bag.errors };
}

// ---------------------------------------------------------------- pontuar

export interface ItemInput {
  descricao?: string | undefined;
  complemento?: string | undefined;
  qtde?: number | undefined;
  valor?: number | undefined;
}

export interface PontuarInput {
  valor_gasto: number;
  senha_atendente: string;
  cliente: CustomerInput;
  itens: ItemInput[];
}

function itemFields(obj: JsonObject, path: string, bag: ErrorBag): ItemInput {
  return {
    descricao: optionalText(
      obj,
      'descricao',
      `${path}.descricao`,
      {
        max: LIMITS.descricao,
        typeMessage: 'A descrição do item deve ser um texto.',
        maxMessage: `A descrição do item pode ter no máximo ${LIMITS.descricao} caracteres.`,
      },
      bag,
    ),
    complemento: optionalText(
      obj,
      'complemento',
      `${path}.complemento`,
      {
        max: LIMITS.complemento,
        typeMessage: 'O complemento do item deve ser um texto.',
        maxMessage: `O complemento do item pode ter no máximo ${LIMITS.complemento} caracteres.`,
      },
      bag,
    ),
    qtde: optionalInteger(
      obj,
      'qtde',
      `${path}.qtde`,
      1,
      LIMITS.qtdeMax,
      'A quantidade deve ser um número inteiro maior que zero.',
      bag,
    ),
    valor: optionalInteger(
      obj,
      'valor',
      `${path}.valor`,
      0,
      LIMITS.itemValorMax,
      'O valor do item deve ser um número inteiro de centavos, zero ou mais (R$ 10,50 = 1050).',
      bag,
    ),
  };
}

/**
 * Body of `POST /fidelidade/pontuar`. `checkPassword` tells whether the attendant password is
 * the establishment's; a wrong one is an error on `senha_atendente` like any other.
 * An empty `itens` list counts as no basket.
 */
export function validatePontuar(
  body: JsonObject,
  ctx: { today: string; checkPassword: (senha: string) => boolean },
): Validated<PontuarInput> {
  const bag = new ErrorBag();

  const valorRaw = field(body, 'valor_gasto');
  let valorGasto: number | undefined;
  if (valorRaw === undefined || valorRaw === null) {
    bag.add('valor_gasto', 'Informe o valor gasto.');
  } else if (typeof valorRaw !== 'number' || !Number.isSafeInteger(valorRaw)) {
    bag.add(
      'valor_gasto',
      'O valor gasto deve ser um número inteiro de centavos (R$ 10,50 = 1050).',
    );
  } else if (valorRaw < LIMITS.valorGastoMin || valorRaw > LIMITS.valorGastoMax) {
    bag.add(
      'valor_gasto',
      `O valor gasto deve ser de ${formatReais(LIMITS.valorGastoMin)} a ${formatReais(LIMITS.valorGastoMax)}.`,
    );
  } else {
    valorGasto = valorRaw;
  }

  const senhaRaw = field(body, 'senha_atendente');
  let senha: string | undefined;
  if (senhaRaw === undefined || senhaRaw === null || senhaRaw === '') {
    bag.add('senha_atendente', 'Informe a senha do atendente.');
  } else if (typeof senhaRaw !== 'string') {
    bag.add('senha_atendente', 'A senha do atendente deve ser um texto.');
  } else if (charCount(senhaRaw) > LIMITS.senha) {
    bag.add(
      'senha_atendente',
      `A senha do atendente pode ter no máximo ${LIMITS.senha} caracteres.`,
    );
  } else if (!ctx.checkPassword(senhaRaw)) {
    bag.add('senha_atendente', 'Senha do atendente incorreta.');
  } else {
    senha = senhaRaw;
  }

  const clienteRaw = field(body, 'cliente');
  let cliente: CustomerInput | undefined;
  if (clienteRaw === undefined || clienteRaw === null) {
    bag.add('cliente', 'Informe os dados do cliente.');
  } else if (!isPlainObject(clienteRaw)) {
    bag.add('cliente', 'Os dados do cliente devem ser um objeto.');
  } else {
    cliente = customerFields(clienteRaw, 'cliente', bag, ctx.today);
  }

  const itensRaw = field(body, 'itens');
  const itens: ItemInput[] = [];
  let itensOk = true;
  if (itensRaw !== undefined && itensRaw !== null) {
    if (!Array.isArray(itensRaw)) {
      bag.add('itens', 'Os itens devem ser uma lista.');
      itensOk = false;
    } else if (itensRaw.length > LIMITS.itensMax) {
      bag.add('itens', `A compra pode ter no máximo ${LIMITS.itensMax} itens.`);
      itensOk = false;
    } else {
      itensRaw.forEach((raw: unknown, i) => {
        const path = `itens.${i}`;
        if (!isPlainObject(raw)) {
          bag.add(path, 'Cada item deve ser um objeto.');
          itensOk = false;
          return;
        }
        const before = Object.keys(bag.errors).length;
        itens.push(itemFields(raw, path, bag));
        if (Object.keys(bag.errors).length !== before) itensOk = false;
      });
    }
  }

  if (itensOk && valorGasto !== undefined && itens.length > 0) {
    const soma = itens.reduce((acc, it) => acc + (it.valor ?? 0), 0);
    if (soma !== valorGasto) {
      bag.add(
        'itens',
        `A soma dos itens (${formatReais(soma)}) difere do valor gasto (${formatReais(valorGasto)}).`,
      );
    }
  }

  if (!bag.empty || valorGasto === undefined || senha === undefined || cliente === undefined) {
    return { ok: false, errors: bag.errors };
  }
  return { ok: true, value: { valor_gasto: valorGasto, senha_atendente: senha, cliente, itens } };
}

// ---------------------------------------------------------------- buscar

export type LookupKey =
  | { by: 'id_cliente'; value: number }
  | { by: 'cpf'; value: string }
  | { by: 'celular'; value: string };

/** Body of `POST /clientes/buscar`: precedence id_cliente > cpf > celular. */
export function validateBuscar(body: JsonObject): Validated<LookupKey> {
  const bag = new ErrorBag();
  const id = optionalInteger(
    body,
    'id_cliente',
    'id_cliente',
    1,
    Number.MAX_SAFE_INTEGER,
    'O id do cliente deve ser um número inteiro positivo.',
    bag,
  );
  const cpf = cpfField(body, 'cpf', bag);
  const celular = celularField(body, 'celular', bag, false);
  if (!bag.empty) return { ok: false, errors: bag.errors };
  if (id !== undefined) return { ok: true, value: { by: 'id_cliente', value: id } };
  if (cpf !== undefined) return { ok: true, value: { by: 'cpf', value: cpf } };
  if (celular !== undefined) return { ok: true, value: { by: 'celular', value: celular } };
  const message = 'Informe o id do cliente, o CPF ou o celular para buscar.';
  return { ok: false, errors: { id_cliente: [message], cpf: [message], celular: [message] } };
}

// ---------------------------------------------------------------- reward list

const DATE_FIELDS = wire.REWARD_DATE_FIELDS;
export type DateField = (typeof DATE_FIELDS)[number];

export interface RewardQuery {
  filtrar_por: DateField;
  status?: Status | undefined;
  categoria?: Category | undefined;
  data_inicio?: string | undefined;
  data_fim?: string | undefined;
  q?: string | undefined;
  itens_por_pagina: number;
  id_cliente?: number | undefined;
  page: number;
}

function queryInteger(
  raw: string | undefined,
  path: string,
  min: number,
  max: number,
  message: string,
  bag: ErrorBag,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    bag.add(path, message);
    return undefined;
  }
  return n;
}

function queryEnum<T extends string>(
  raw: string | undefined,
  allowed: readonly T[],
  path: string,
  message: string,
  bag: ErrorBag,
): T | undefined {
  if (raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  bag.add(path, message);
  return undefined;
}

function queryDate(
  raw: string | undefined,
  path: string,
  message: string,
  bag: ErrorBag,
): string | undefined {
  if (raw === undefined) return undefined;
  if (parseDate(raw)) return raw;
  bag.add(path, message);
  return undefined;
}

/**
 * Query of `GET /recompensas`. `get` returns a parameter's value; an empty value counts as
 * not sent.
 */
export function validateRewardQuery(
  get: (name: string) => string | null | undefined,
): Validated<RewardQuery> {
  const bag = new ErrorBag();
  const param = (name: string): string | undefined => {
    const v = get(name);
    return v === null || v === undefined || v === '' ? undefined : v;
  };
  const filtrarPor = queryEnum(
    param('filtrar_por'),
    DATE_FIELDS,
    'filtrar_por',
    'Filtro de data inválido. Use valido_ate, data_resgate, data_conquista ou estornado_em.',
    bag,
  );
  const status = queryEnum(
    param('status'),
    STATUSES,
    'status',
    'Status inválido. Use expirado, pendente_resgate, resgatado ou estornado.',
    bag,
  );
  const categoria = queryEnum(
    param('categoria'),
    CATEGORIES,
    'categoria',
    'Categoria inválida. Use premio_fidelidade, brinde_roleta, premio_campanha, premio_surpresa ou premio_game.',
    bag,
  );
  const inicio = queryDate(
    param('data_inicio'),
    'data_inicio',
    'Data inicial inválida. Use o formato AAAA-MM-DD.',
    bag,
  );
  const fim = queryDate(
    param('data_fim'),
    'data_fim',
    'Data final inválida. Use o formato AAAA-MM-DD.',
    bag,
  );
  if (inicio !== undefined && fim !== undefined && inicio > fim) {
    bag.add('data_fim', 'A data final não pode ser anterior à data inicial.');
  }
  const q = param('q');
  if (q !== undefined && charCount(q) > LIMITS.q) {
    bag.add('q', `A busca pode ter no máximo ${LIMITS.q} caracteres.`);
  }
  const perPage = queryInteger(
    param('itens_por_pagina'),
    'itens_por_pagina',
    1,
    LIMITS.perPageMax,
    `Itens por página deve ser um número inteiro de 1 a ${LIMITS.perPageMax}.`,
    bag,
  );
  const idCliente = queryInteger(
    param('id_cliente'),
    'id_cliente',
    1,
    Number.MAX_SAFE_INTEGER,
    'O id do cliente deve ser um número inteiro positivo.',
    bag,
  );
  const page = queryInteger(
    param('page'),
    'page',
    1,
    LIMITS.pageMax,
    'A página deve ser um número inteiro a partir de 1.',
    bag,
  );

  if (!bag.empty) return { ok: false, errors: bag.errors };
  return {
    ok: true,
    value: {
      filtrar_por: filtrarPor ?? 'data_conquista',
      status,
      categoria,
      data_inicio: inicio,
      data_fim: fim,
      q,
      itens_por_pagina: perPage ?? LIMITS.perPageDefault,
      id_cliente: idCliente,
      page: page ?? 1,
    },
  };
}
