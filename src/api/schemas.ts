// Wire schemas (zod/mini) of every resource and request. The inferred types below are the
// only wire types the app uses. Responses are tolerant where the live service may differ
// harmlessly (extra fields pass through, nullable text may also be missing, `receita` may be
// a numeric string); strict where the app depends on the value (ids, balances, counters, enums).
// Pure zod: the sandbox may share these.
import * as z from 'zod/mini';
import { isValidCpf } from '@/lib/cpf';
import { isNotFuture, isRealDate } from '@/lib/dates';
import { formatBRL, MAX_CENTS } from '@/lib/money';

// ---------------------------------------------------------------- enum value lists

export const REWARD_STATUSES = ['expirado', 'pendente_resgate', 'resgatado', 'estornado'] as const;
export const REWARD_CATEGORIES = [
  'premio_fidelidade',
  'brinde_roleta',
  'premio_campanha',
  'premio_surpresa',
  'premio_game',
] as const;
export const REWARD_DATE_FIELDS = [
  'valido_ate',
  'data_resgate',
  'data_conquista',
  'estornado_em',
] as const;
export const REWARD_COUNTER_PREFIXES = [
  'conquistados',
  'pendente_resgate',
  'resgatado',
  'expirado',
] as const;

export type RewardStatus = (typeof REWARD_STATUSES)[number];
export type RewardCategory = (typeof REWARD_CATEGORIES)[number];
export type RewardDateField = (typeof REWARD_DATE_FIELDS)[number];
export type RewardCounterPrefix = (typeof REWARD_COUNTER_PREFIXES)[number];
export type RewardCounterKey = `${RewardCounterPrefix}_${RewardCategory}`;

/** The 20 customer counters, `<prefix>_<category>`, prefixes outer, categories inner. */
export const REWARD_COUNTER_KEYS: readonly RewardCounterKey[] = REWARD_COUNTER_PREFIXES.flatMap(
  (prefix) => REWARD_CATEGORIES.map((cat) => `${prefix}_${cat}` as const),
);

export const rewardCounterKey = (prefix: RewardCounterPrefix, category: RewardCategory) =>
  `${prefix}_${category}` as RewardCounterKey;

export const RewardStatus = z.enum(REWARD_STATUSES);
export const RewardCategory = z.enum(REWARD_CATEGORIES);
export const RewardDateField = z.enum(REWARD_DATE_FIELDS);

// ---------------------------------------------------------------- building blocks

/** `{ success, message, data }`; `success` is checked by the client (false on 2xx = contract). */
export const envelope = <T extends z.ZodMiniType>(data: T) =>
  z.looseObject({
    success: z.boolean(),
    message: z.optional(z.nullable(z.string())),
    data,
  });

/** Text that is nullable on the wire; a missing field reads as null too. */
const nullableText = z.pipe(
  z.optional(z.nullable(z.string())),
  z.transform((v) => v ?? null),
);

const integer = z.int();
const count = z.int().check(z.nonnegative());

/** A number, or a decimal string such as "32.50" (Laravel's decimal casts), → number. */
const decimal = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^-?\d+(\.\d+)?$/))]),
  z.transform((v) => Number(v)),
);

// ---------------------------------------------------------------- responses

export const PointEntry = z.looseObject({
  id_cartela_cliente: integer,
  pontos: integer,
  data: z.string(),
  tipo: z.string(),
  data_validade: nullableText,
});
export type PointEntry = z.infer<typeof PointEntry>;

export const Wallet = z.looseObject({
  saldo: integer,
  saldo_carencia: z.pipe(
    z.optional(z.nullable(integer)),
    z.transform((v) => v ?? 0),
  ),
  pontos_vencidos: z.array(PointEntry),
  pontos_vencendo: z.array(PointEntry),
  historico: z.optional(z.array(PointEntry)),
});
export type Wallet = z.infer<typeof Wallet>;

const counterShape = Object.fromEntries(REWARD_COUNTER_KEYS.map((k) => [k, count])) as Record<
  RewardCounterKey,
  typeof count
>;

export const Customer = z.looseObject({
  id_cliente: integer,
  nome: z.string(),
  email: z.string(),
  data_cadastro: z.string(),
  celular: z.string(),
  /** Not in the spec's field table; the sandbox sends it. Digits or a generated hash. */
  cpf: nullableText,
  data_nascimento: nullableText,
  /** M/F on requests; a response may carry m, f, NA or anything else. */
  genero: nullableText,
  cep: nullableText,
  endereco: nullableText,
  bairro: nullableText,
  cidade: nullableText,
  uf: nullableText,
  carteira: Wallet,
  /** Revenue in **reais** (decimal), not cents: use reaisToCents before formatBRL. */
  receita: decimal,
  compras: count,
  primeira_compra: nullableText,
  ultima_compra: nullableText,
  ...counterShape,
});
export type Customer = z.infer<typeof Customer>;

export const PointsResult = z.looseObject({
  id_cliente: integer,
  id_ponto: integer,
  saldo_atual: integer,
  /** Absent when the establishment has no carencia: read as 0. */
  saldo_carencia: z.pipe(
    z.optional(z.nullable(integer)),
    z.transform((v) => v ?? 0),
  ),
});
export type PointsResult = z.infer<typeof PointsResult>;

export const RewardRecord = z.looseObject({
  id_premio_cliente: integer,
  id_cliente: integer,
  id_premio: integer,
  valido_ate: z.string(),
  data_resgate: nullableText,
  data_conquista: z.string(),
  estornado_em: nullableText,
  premio_status: RewardStatus,
  categoria_premio: RewardCategory,
  nome: z.string(),
});
export type RewardRecord = z.infer<typeof RewardRecord>;

export const RewardPage = z.looseObject({
  current_page: integer,
  data: z.array(RewardRecord),
  first_page_url: z.string(),
  last_page_url: z.string(),
  next_page_url: z.nullable(z.string()),
  prev_page_url: z.nullable(z.string()),
  /** null on a page past the end */
  from: z.nullable(integer),
  to: z.nullable(integer),
  per_page: integer,
  last_page: integer,
  total: count,
});
export type RewardPage = z.infer<typeof RewardPage>;

/** Our own server's `GET /api/config` data. */
export const Config = z.looseObject({
  establishmentId: z.int().check(z.positive()),
  establishmentName: z.nullable(z.string()),
  mode: z.enum(['sandbox', 'live']),
});
export type Config = z.infer<typeof Config>;
export type AppConfig = Config;

/** 409 on cadastrar: `data: { id_cliente }` of the existing customer. */
export const ConflictData = z.looseObject({ id_cliente: integer });
export type ConflictData = z.infer<typeof ConflictData>;

// ---------------------------------------------------------------- requests

export const E164 = z
  .string()
  .check(z.regex(/^\+[1-9]\d{7,14}$/, 'Celular inválido: use o formato +5511987654321.'));
export const CpfDigits = z
  .string()
  .check(
    z.regex(/^\d{11}$/, { error: 'CPF deve ter 11 dígitos.', abort: true }),
    z.refine(isValidCpf, 'CPF inválido: dígitos verificadores não conferem.'),
  );
export const WireDate = z.string().check(
  z.refine(isRealDate, {
    error: 'Data inválida: use AAAA-MM-DD com uma data que exista.',
    abort: true,
  }),
);
const BirthDate = WireDate.check(
  z.refine((v) => isNotFuture(v), 'A data de nascimento não pode estar no futuro.'),
);
const positiveId = z.int('Informe um número inteiro.').check(z.positive('Código inválido.'));

const customerFields = {
  cpf: z.optional(CpfDigits),
  nome: z.optional(z.string()),
  email: z.optional(z.string()),
  data_nascimento: z.optional(BirthDate),
  genero: z.optional(z.enum(['M', 'F'], 'Gênero deve ser M ou F.')),
  cep: z.optional(z.string().check(z.regex(/^\d{8}$/, 'CEP deve ter 8 dígitos.'))),
  endereco: z.optional(z.string().check(z.maxLength(100, 'Endereço: no máximo 100 caracteres.'))),
  bairro: z.optional(z.string().check(z.maxLength(50, 'Bairro: no máximo 50 caracteres.'))),
  cidade: z.optional(z.string()),
  /** The request field for `uf`; preferably the two-letter sigla. */
  estado: z.optional(z.string()),
};

/** buscar: exactly one key. */
export const FindCustomerBody = z.union([
  z.strictObject({ id_cliente: positiveId }),
  z.strictObject({ cpf: CpfDigits }),
  z.strictObject({ celular: E164 }),
]);
export type FindCustomerBody = z.infer<typeof FindCustomerBody>;

export const RegisterCustomerBody = z.object({ celular: E164, ...customerFields });
export type RegisterCustomerBody = z.infer<typeof RegisterCustomerBody>;

export const PurchaseItem = z.object({
  descricao: z.optional(z.string()),
  complemento: z.optional(z.string()),
  qtde: z.optional(
    z.int('Quantidade deve ser um número inteiro.').check(z.minimum(1, 'Quantidade mínima: 1.')),
  ),
  valor: z.optional(
    z
      .int('Valor em centavos, número inteiro.')
      .check(z.nonnegative('Valor não pode ser negativo.')),
  ),
});
export type PurchaseItem = z.infer<typeof PurchaseItem>;

export const PostPointsBody = z
  .object({
    valor_gasto: z
      .int('Valor gasto em centavos, número inteiro.')
      .check(
        z.minimum(1, 'Informe o valor gasto.'),
        z.maximum(MAX_CENTS, `Valor gasto acima do limite de ${formatBRL(MAX_CENTS)}.`),
      ),
    senha_atendente: z.string().check(z.minLength(1, 'Informe a senha do atendente.')),
    cliente: z.object({ celular: E164, ...customerFields }),
    itens: z.optional(z.array(PurchaseItem).check(z.maxLength(200, 'No máximo 200 itens.'))),
  })
  .check(
    z.refine((body) => !body.itens?.length || itemsTotal(body.itens) === body.valor_gasto, {
      path: ['itens'],
      error: (issue) => {
        const body = issue.input as { valor_gasto: number; itens: PurchaseItem[] };
        return `A soma dos itens (${formatBRL(itemsTotal(body.itens))}) difere do valor gasto (${formatBRL(body.valor_gasto)}).`;
      },
    }),
  );
export type PostPointsBody = z.infer<typeof PostPointsBody>;

/** Sum of the basket's line totals in cents (a line without `valor` counts 0). */
export function itemsTotal(itens: readonly PurchaseItem[]): number {
  return itens.reduce((sum, item) => sum + (item.valor ?? 0), 0);
}

export const RewardFilters = z
  .object({
    status: z.optional(RewardStatus),
    categoria: z.optional(RewardCategory),
    filtrar_por: z.optional(RewardDateField),
    data_inicio: z.optional(WireDate),
    data_fim: z.optional(WireDate),
    q: z.optional(z.string()),
    itens_por_pagina: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
    id_cliente: z.optional(positiveId),
    page: z.optional(z.int().check(z.minimum(1))),
  })
  .check(
    z.refine((f) => !f.data_inicio || !f.data_fim || f.data_inicio <= f.data_fim, {
      path: ['data_fim'],
      error: 'A data final deve ser igual ou posterior à data inicial.',
    }),
  );
export type RewardFilters = z.infer<typeof RewardFilters>;
