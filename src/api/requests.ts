// Request bodies of the five operations (zod/mini): the contract the forms are tested
// against (their tests parse what `toPointsBody`, `toRegisterBody`, `toRequestFilters` and
// the lookup build). At run time the app imports only their types, so these schemas stay out
// of every bundle.
import * as z from 'zod/mini';
import { isValidCpf } from '@/lib/cpf';
import { isNotFuture, isRealDate } from '@/lib/dates';
import { formatBRL, MAX_CENTS } from '@/lib/money';
import { REWARD_CATEGORIES, REWARD_DATE_FIELDS, REWARD_STATUSES } from '#contract/wire';

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

/** resgatar-premio: `id_premio` is the reward's definition (as in its records), not the record. */
export const HandOverBody = z.strictObject({
  id_premio: positiveId,
  id_cliente: positiveId,
  senha_atendente: z.string().check(z.minLength(1, 'Informe a senha do atendente.')),
});
export type HandOverBody = z.infer<typeof HandOverBody>;

export const RewardFilters = z
  .object({
    status: z.optional(z.enum(REWARD_STATUSES)),
    categoria: z.optional(z.enum(REWARD_CATEGORIES)),
    filtrar_por: z.optional(z.enum(REWARD_DATE_FIELDS)),
    data_inicio: z.optional(WireDate),
    data_fim: z.optional(WireDate),
    q: z.optional(z.string()),
    itens_por_pagina: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
    id_cliente: z.optional(positiveId),
    page: z.optional(z.int().check(z.minimum(1))),
    /** The chain's store a `rede` terminal reads (its establishment in the path, `X-Loja`). */
    loja: z.optional(positiveId),
  })
  .check(
    z.refine((f) => !f.data_inicio || !f.data_fim || f.data_inicio <= f.data_fim, {
      path: ['data_fim'],
      error: 'A data final deve ser igual ou posterior à data inicial.',
    }),
  );
export type RewardFilters = z.infer<typeof RewardFilters>;
