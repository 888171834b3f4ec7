// Wire schemas (zod/mini) of every response. The inferred types below are the
// only wire types the app uses. Responses are tolerant where the live service may differ
// harmlessly (extra fields pass through, nullable text may also be missing, `receita` may be
// a numeric string); strict where the app depends on the value (ids, balances, counters, enums).
// Pure zod. Request bodies live in ./requests, the wire's enums in ./wire.
// Each schema is built at its first use (`lazySchema`): the entry imports this module.
import * as z from 'zod/mini';
import { lazySchema } from '#contract/lazy-schema';
import {
  REWARD_CATEGORIES,
  REWARD_COUNTER_KEYS,
  REWARD_STATUSES,
  type RewardCounterKey,
} from '#contract/wire';

const RewardStatus = lazySchema(() => z.enum(REWARD_STATUSES));
const RewardCategory = lazySchema(() => z.enum(REWARD_CATEGORIES));

// ---------------------------------------------------------------- building blocks

/** `{ success, message, data }`; `success` is checked by the client (false on 2xx = contract). */
export const envelope = <T extends z.ZodMiniType>(data: T) =>
  z.looseObject({
    success: z.boolean(),
    message: z.optional(z.nullable(z.string())),
    data,
  });

/** Text that is nullable on the wire; a missing field reads as null too. */
const nullableText = lazySchema(() =>
  z.pipe(
    z.optional(z.nullable(z.string())),
    z.transform((v) => v ?? null),
  ),
);

const integer = lazySchema(() => z.int());
const count = lazySchema(() => z.int().check(z.nonnegative()));

/** A number, or a decimal string such as "32.50" (Laravel's decimal casts), → number. */
const decimal = lazySchema(() =>
  z.pipe(
    z.union([z.number(), z.string().check(z.regex(/^-?\d+(\.\d+)?$/))]),
    z.transform((v) => Number(v)),
  ),
);

// ---------------------------------------------------------------- responses

export const PointEntry = lazySchema(() =>
  z.looseObject({
    id_cartela_cliente: integer,
    pontos: integer,
    data: z.string(),
    tipo: z.string(),
    data_validade: nullableText,
  }),
);
export type PointEntry = z.infer<typeof PointEntry>;

export const Wallet = lazySchema(() =>
  z.looseObject({
    saldo: integer,
    saldo_carencia: z.pipe(
      z.optional(z.nullable(integer)),
      z.transform((v) => v ?? 0),
    ),
    pontos_vencidos: z.array(PointEntry),
    pontos_vencendo: z.array(PointEntry),
    historico: z.optional(z.array(PointEntry)),
  }),
);
export type Wallet = z.infer<typeof Wallet>;

const counterShape = Object.fromEntries(REWARD_COUNTER_KEYS.map((k) => [k, count])) as Record<
  RewardCounterKey,
  typeof count
>;

export const Customer = lazySchema(() =>
  z.looseObject({
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
  }),
);
export type Customer = z.infer<typeof Customer>;

export const PointsResult = lazySchema(() =>
  z.looseObject({
    id_cliente: integer,
    id_ponto: integer,
    saldo_atual: integer,
    /** Absent when the establishment has no carencia: read as 0. */
    saldo_carencia: z.pipe(
      z.optional(z.nullable(integer)),
      z.transform((v) => v ?? 0),
    ),
  }),
);
export type PointsResult = z.infer<typeof PointsResult>;

/** resgatar-premio's answer: the record handed over (decisions.md "Handing a reward over"). */
export const HandOverResult = lazySchema(() =>
  z.looseObject({ id_cliente: integer, id_premio_cliente: integer }),
);
export type HandOverResult = z.infer<typeof HandOverResult>;

export const RewardRecord = lazySchema(() =>
  z.looseObject({
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
  }),
);
export type RewardRecord = z.infer<typeof RewardRecord>;

export const RewardPage = lazySchema(() =>
  z.looseObject({
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
  }),
);
export type RewardPage = z.infer<typeof RewardPage>;

/** 409 on cadastrar: `data: { id_cliente }` of the existing customer. */
export const ConflictData = lazySchema(() => z.looseObject({ id_cliente: integer }));
export type ConflictData = z.infer<typeof ConflictData>;
