// The reward table's filters live in the URL query string, so a link such as
// `/premios?id_cliente=7&status=pendente_resgate` opens filtered and Back/Forward work.
// This module maps URL ⇄ filters: values a person could not have picked in the form are
// dropped (and reported, so the form can say so), defaults are left out of the URL.
import {
  REWARD_CATEGORIES,
  REWARD_DATE_FIELDS,
  REWARD_STATUSES,
  type RewardCategory,
  type RewardDateField,
  type RewardStatus,
} from '#contract/wire';
import type { RewardFilters } from '@/api/requests';
import { isRealDate } from '@/lib/dates';

export const PAGE_SIZES = [15, 30, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 15;
/** The date field the service filters when dates come without `filtrar_por`. */
export const DEFAULT_DATE_FIELD: RewardDateField = 'data_conquista';

/** What the URL holds. Defaults are absent: no `page` is page 1, no size is 15. */
export interface RewardListFilters {
  id_cliente?: number;
  status?: RewardStatus;
  categoria?: RewardCategory;
  filtrar_por?: RewardDateField;
  data_inicio?: string;
  data_fim?: string;
  q?: string;
  itens_por_pagina?: PageSize;
  page?: number;
  /** The chain's store a `rede` terminal reads (not a filter of the service). */
  loja?: number;
}

export type FilterParam = keyof RewardListFilters;

/** URL order, also the order of the "ignored" notice. */
export const FILTER_PARAMS: readonly FilterParam[] = [
  'id_cliente',
  'status',
  'categoria',
  'filtrar_por',
  'data_inicio',
  'data_fim',
  'q',
  'itens_por_pagina',
  'page',
  'loja',
];

/** A URL value that was not used, with the reason in Portuguese. */
export interface IgnoredParam {
  param: FilterParam;
  value: string;
  message: string;
}

export interface ParsedRewardSearch {
  filters: RewardListFilters;
  ignored: IgnoredParam[];
}

/** Names of the form fields, for messages about URL values. */
export const PARAM_LABELS: Record<FilterParam, string> = {
  id_cliente: 'Código do cliente',
  status: 'Situação',
  categoria: 'Categoria',
  filtrar_por: 'Filtrar datas por',
  data_inicio: 'De',
  data_fim: 'Até',
  q: 'Buscar prêmio',
  itens_por_pagina: 'Itens por página',
  page: 'Página',
  loja: 'Loja',
};

const POSITIVE_INT = /^[1-9]\d{0,8}$/; // up to 999 999 999: no float rounding, no giant ids

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

export const DATE_RANGE_MESSAGE = 'A data final deve ser igual ou posterior à data inicial.';

/** Reads the filters from a query string; what is not valid is left out and listed. */
export function parseRewardSearch(search: URLSearchParams | string): ParsedRewardSearch {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const filters: RewardListFilters = {};
  const ignored: IgnoredParam[] = [];
  // Like the service (PHP), a repeated parameter counts by its last value.
  const read = (name: FilterParam) => params.getAll(name).at(-1)?.trim() ?? '';
  const drop = (param: FilterParam, value: string, reason: string) =>
    ignored.push({
      param,
      value,
      message: `${PARAM_LABELS[param]}: “${value}” ${reason}; foi ignorado.`,
    });

  for (const param of FILTER_PARAMS) {
    const value = read(param);
    if (value === '') continue;
    switch (param) {
      case 'status':
        if (isOneOf(REWARD_STATUSES, value)) filters.status = value;
        else drop(param, value, 'não é uma situação conhecida');
        break;
      case 'categoria':
        if (isOneOf(REWARD_CATEGORIES, value)) filters.categoria = value;
        else drop(param, value, 'não é uma categoria conhecida');
        break;
      case 'filtrar_por':
        if (isOneOf(REWARD_DATE_FIELDS, value)) {
          if (value !== DEFAULT_DATE_FIELD) filters.filtrar_por = value;
        } else drop(param, value, 'não é um campo de data conhecido');
        break;
      case 'data_inicio':
      case 'data_fim':
        if (isRealDate(value)) filters[param] = value;
        else drop(param, value, 'não é uma data válida (AAAA-MM-DD)');
        break;
      case 'q':
        filters.q = value;
        break;
      case 'id_cliente':
        if (POSITIVE_INT.test(value)) filters.id_cliente = Number(value);
        else drop(param, value, 'não é um código de cliente válido');
        break;
      case 'itens_por_pagina': {
        const size = Number(value);
        const known = PAGE_SIZES.find((s) => s === size && String(s) === value);
        if (known === undefined) drop(param, value, `não é uma opção (${PAGE_SIZES.join(', ')})`);
        else if (known !== DEFAULT_PAGE_SIZE) filters.itens_por_pagina = known;
        break;
      }
      case 'page':
        if (!POSITIVE_INT.test(value)) drop(param, value, 'não é um número de página válido');
        else if (value !== '1') filters.page = Number(value);
        break;
      case 'loja':
        if (POSITIVE_INT.test(value)) filters.loja = Number(value);
        else drop(param, value, 'não é um código de loja válido');
        break;
    }
  }
  return { filters, ignored };
}

/** The query string for filters ("" or "?a=1&b=2"), defaults and blanks left out. */
export function serializeRewardSearch(filters: RewardListFilters): string {
  const params = new URLSearchParams();
  const clean = parseRewardSearch(toParams(filters)).filters; // one source of "valid"
  for (const param of FILTER_PARAMS) {
    const value = clean[param];
    if (value !== undefined) params.set(param, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toParams(filters: RewardListFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const param of FILTER_PARAMS) {
    const value = filters[param];
    if (value !== undefined && value !== null) params.set(param, String(value));
  }
  return params;
}

export const REWARDS_PATH = '/premios';

export const rewardsHref = (filters: RewardListFilters) =>
  `${REWARDS_PATH}${serializeRewardSearch(filters)}`;

/**
 * Filters with a change applied. Any change but the page's own goes back to page 1 (page 7
 * of the old result means nothing in the new one); `undefined` removes a filter.
 */
export function applyFilterChange(
  filters: RewardListFilters,
  change: Partial<RewardListFilters>,
): RewardListFilters {
  const next: RewardListFilters = { ...filters, ...change };
  if (!('page' in change)) delete next.page;
  for (const param of FILTER_PARAMS) if (next[param] === undefined) delete next[param];
  return next;
}

/** "Limpar filtros": everything goes but the page size, which is a preference. */
export function clearedFilters(filters: RewardListFilters): RewardListFilters {
  const { itens_por_pagina, loja } = filters;
  return {
    ...(itens_por_pagina ? { itens_por_pagina } : {}),
    ...(loja === undefined ? {} : { loja }),
  };
}

/** True when anything "Limpar filtros" would remove is set. */
export function hasActiveFilters(filters: RewardListFilters): boolean {
  return FILTER_PARAMS.some(
    (p) => p !== 'itens_por_pagina' && p !== 'page' && p !== 'loja' && filters[p] !== undefined,
  );
}

/** The check the service would answer with a 422, made before any request. */
export function dateRangeError(filters: RewardListFilters): string | null {
  const { data_inicio: start, data_fim: end } = filters;
  return start && end && start > end ? DATE_RANGE_MESSAGE : null;
}

/**
 * What the request carries: the page size always (the live service's default is not in the
 * spec) and the date field whenever a date is set; no date field without dates.
 */
export function toRequestFilters(filters: RewardListFilters): RewardFilters {
  const hasDates = filters.data_inicio !== undefined || filters.data_fim !== undefined;
  const out: RewardFilters = {
    ...filters,
    itens_por_pagina: filters.itens_por_pagina ?? DEFAULT_PAGE_SIZE,
  };
  if (hasDates) out.filtrar_por = filters.filtrar_por ?? DEFAULT_DATE_FIELD;
  else delete out.filtrar_por;
  return out;
}
