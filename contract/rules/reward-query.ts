// The query of the reward list (`GET /recompensas`) as the service checks it.

import * as z from 'zod';
import * as wire from '../wire';
import * as fields from '../wire-fields';
import { charCount, finish, ID_CLIENTE, rule, toFieldErrors, type Validated } from './field-rules';
import { parseDate } from './time';

const DATE_FIELDS = wire.REWARD_DATE_FIELDS;
export type DateField = (typeof DATE_FIELDS)[number];

export interface RewardQuery {
  filtrar_por: DateField;
  status?: wire.RewardStatus | undefined;
  categoria?: wire.RewardCategory | undefined;
  data_inicio?: string | undefined;
  data_fim?: string | undefined;
  q?: string | undefined;
  itens_por_pagina: number;
  id_cliente?: number | undefined;
  page: number;
}

/** A query parameter holding an integer from `min` to `max` (digits only). */
function queryInteger(min: number, max: number, message: string) {
  return z.optional(
    z
      .string()
      .check(
        rule((raw) => {
          const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
          return Number.isSafeInteger(n) && n >= min && n <= max;
        }, message),
      )
      .transform(Number),
  );
}

const queryDate = (message: string) =>
  z.optional(z.string().check(rule((s) => parseDate(s) !== null, message)));

const rewardQuery = z.object({
  filtrar_por: z._default(
    z.enum(DATE_FIELDS, {
      error:
        'Filtro de data inválido. Use valido_ate, data_resgate, data_conquista ou estornado_em.',
    }),
    'data_conquista',
  ),
  status: z.optional(
    z.enum(wire.REWARD_STATUSES, {
      error: 'Status inválido. Use expirado, pendente_resgate, resgatado ou estornado.',
    }),
  ),
  categoria: z.optional(
    z.enum(wire.REWARD_CATEGORIES, {
      error:
        'Categoria inválida. Use premio_fidelidade, brinde_roleta, premio_campanha, premio_surpresa ou premio_game.',
    }),
  ),
  data_inicio: queryDate('Data inicial inválida. Use o formato AAAA-MM-DD.'),
  data_fim: queryDate('Data final inválida. Use o formato AAAA-MM-DD.'),
  q: z.optional(
    z
      .string()
      .check(
        rule(
          (s) => charCount(s) <= fields.Q_MAX,
          `A busca pode ter no máximo ${fields.Q_MAX} caracteres.`,
        ),
      ),
  ),
  itens_por_pagina: z._default(
    queryInteger(
      1,
      fields.PER_PAGE_MAX,
      `Itens por página deve ser um número inteiro de 1 a ${fields.PER_PAGE_MAX}.`,
    ),
    fields.PER_PAGE_DEFAULT,
  ),
  id_cliente: queryInteger(1, Number.MAX_SAFE_INTEGER, ID_CLIENTE),
  page: z._default(
    queryInteger(1, 1_000_000_000, 'A página deve ser um número inteiro a partir de 1.'),
    1,
  ),
});
const REWARD_QUERY_FIELDS = Object.keys(rewardQuery.shape);

/**
 * Query of `GET /recompensas`. `get` returns a parameter's value; an empty value counts as
 * not sent.
 */
export function validateRewardQuery(
  get: (name: string) => string | null | undefined,
): Validated<RewardQuery> {
  const params: Record<string, string> = {};
  for (const name of REWARD_QUERY_FIELDS) {
    const v = get(name);
    if (v !== null && v !== undefined && v !== '') params[name] = v;
  }
  const parsed = rewardQuery.safeParse(params);
  const errors = parsed.success ? {} : toFieldErrors(parsed.error.issues);
  const { data_inicio: inicio, data_fim: fim } = params;
  if (
    inicio !== undefined &&
    fim !== undefined &&
    !errors.data_inicio &&
    !errors.data_fim &&
    inicio > fim
  ) {
    errors.data_fim = ['A data final não pode ser anterior à data inicial.'];
  }
  return finish(parsed, errors, REWARD_QUERY_FIELDS);
}
