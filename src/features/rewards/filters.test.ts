import { describe, expect, test } from 'vitest';
import {
  applyFilterChange,
  clearedFilters,
  dateRangeError,
  hasActiveFilters,
  parseRewardSearch,
  rewardsHref,
  serializeRewardSearch,
  toRequestFilters,
} from './filters';

describe('parseRewardSearch', () => {
  test('an empty query string is no filter at all', () => {
    expect(parseRewardSearch('')).toEqual({ filters: {}, ignored: [] });
  });

  test('reads every filter the form offers', () => {
    const { filters, ignored } = parseRewardSearch(
      '?id_cliente=7&status=pendente_resgate&categoria=brinde_roleta&filtrar_por=valido_ate' +
        '&data_inicio=2026-01-01&data_fim=2026-01-31&q=vale&itens_por_pagina=50&page=3',
    );
    expect(ignored).toEqual([]);
    expect(filters).toEqual({
      id_cliente: 7,
      status: 'pendente_resgate',
      categoria: 'brinde_roleta',
      filtrar_por: 'valido_ate',
      data_inicio: '2026-01-01',
      data_fim: '2026-01-31',
      q: 'vale',
      itens_por_pagina: 50,
      page: 3,
    });
  });

  test('the link from the customer panel opens filtered by that customer', () => {
    expect(parseRewardSearch('?id_cliente=42').filters).toEqual({ id_cliente: 42 });
  });

  test('defaults written out in the URL read as the defaults', () => {
    expect(
      parseRewardSearch('?itens_por_pagina=15&page=1&filtrar_por=data_conquista').filters,
    ).toEqual({});
  });

  test('the search text is trimmed and a blank one is no filter', () => {
    expect(parseRewardSearch('?q=%20%20caf%C3%A9%20').filters).toEqual({ q: 'café' });
    expect(parseRewardSearch('?q=%20%20').filters).toEqual({});
  });

  test.each([
    ['status', 'pendente'],
    ['status', 'RESGATADO'],
    ['categoria', 'premio'],
    ['filtrar_por', 'data_cadastro'],
    ['data_inicio', '2026-02-30'],
    ['data_fim', '01/02/2026'],
    ['id_cliente', 'abc'],
    ['id_cliente', '0'],
    ['id_cliente', '-3'],
    ['id_cliente', '1.5'],
    ['id_cliente', '99999999999999999999'],
    ['itens_por_pagina', '20'],
    ['itens_por_pagina', '1000'],
    ['itens_por_pagina', '015'],
    ['page', '0'],
    ['page', 'dois'],
    ['page', '2.5'],
  ])('%s=%s is dropped and reported', (param, value) => {
    const { filters, ignored } = parseRewardSearch(
      new URLSearchParams({ [param]: value, status: param === 'status' ? value : 'resgatado' }),
    );
    expect(filters).not.toHaveProperty(param);
    expect(ignored).toHaveLength(1);
    expect(ignored[0]).toMatchObject({ param, value });
    expect(ignored[0]!.message).toContain(`“${value}”`);
    expect(ignored[0]!.message).toContain('ignorado');
    if (param !== 'status') expect(filters.status).toBe('resgatado');
  });

  test('the message names the field the way the form labels it', () => {
    expect(parseRewardSearch('?status=xyz').ignored[0]!.message).toBe(
      'Situação: “xyz” não é uma situação conhecida; foi ignorado.',
    );
  });

  test('a repeated parameter counts by its last value, as the service reads it', () => {
    expect(parseRewardSearch('?status=resgatado&status=expirado').filters).toEqual({
      status: 'expirado',
    });
  });

  test('parameters that are not filters are left alone', () => {
    expect(parseRewardSearch('?utm_source=email&status=estornado')).toEqual({
      filters: { status: 'estornado' },
      ignored: [],
    });
  });

  test('an inverted date range is read as typed (the form flags it, nothing is sent)', () => {
    const { filters, ignored } = parseRewardSearch('?data_inicio=2026-03-10&data_fim=2026-03-01');
    expect(ignored).toEqual([]);
    expect(dateRangeError(filters)).toBe(
      'A data final deve ser igual ou posterior à data inicial.',
    );
  });
});

describe('serializeRewardSearch', () => {
  test('no filters, no query string', () => {
    expect(serializeRewardSearch({})).toBe('');
    expect(rewardsHref({})).toBe('/premios');
  });

  test('defaults are left out of the URL', () => {
    expect(
      serializeRewardSearch({ itens_por_pagina: 15, page: 1, filtrar_por: 'data_conquista' }),
    ).toBe('');
  });

  test('writes the filters in a fixed order', () => {
    expect(
      serializeRewardSearch({
        page: 2,
        q: 'vale compras',
        status: 'resgatado',
        id_cliente: 7,
        itens_por_pagina: 30,
        data_fim: '2026-01-31',
        data_inicio: '2026-01-01',
        filtrar_por: 'data_resgate',
        categoria: 'premio_game',
      }),
    ).toBe(
      '?id_cliente=7&status=resgatado&categoria=premio_game&filtrar_por=data_resgate' +
        '&data_inicio=2026-01-01&data_fim=2026-01-31&q=vale+compras&itens_por_pagina=30&page=2',
    );
  });

  test('blank and invalid values never reach the URL', () => {
    expect(
      serializeRewardSearch({
        q: '   ',
        id_cliente: 0,
        page: -1,
        data_inicio: '2026-13-01',
        status: 'nope' as never,
      }),
    ).toBe('');
  });

  test('round trip: what is serialized parses back to the same filters', () => {
    const filters = {
      id_cliente: 1,
      status: 'expirado',
      categoria: 'premio_surpresa',
      filtrar_por: 'estornado_em',
      data_inicio: '2025-12-01',
      data_fim: '2026-02-28',
      q: 'café & pão?',
      itens_por_pagina: 100,
      page: 4,
    } as const;
    expect(parseRewardSearch(serializeRewardSearch(filters)).filters).toEqual(filters);
  });
});

describe('changing filters', () => {
  test('a new filter goes back to page 1', () => {
    expect(applyFilterChange({ status: 'resgatado', page: 5 }, { q: 'vale' })).toEqual({
      status: 'resgatado',
      q: 'vale',
    });
  });

  test('moving page keeps every filter', () => {
    expect(applyFilterChange({ status: 'resgatado', page: 2 }, { page: 3 })).toEqual({
      status: 'resgatado',
      page: 3,
    });
  });

  test('undefined removes a filter', () => {
    expect(
      applyFilterChange({ id_cliente: 7, status: 'expirado' }, { id_cliente: undefined }),
    ).toEqual({
      status: 'expirado',
    });
  });

  test('"Limpar filtros" keeps only the page size', () => {
    const filters = { id_cliente: 7, q: 'x', itens_por_pagina: 50, page: 3 } as const;
    expect(clearedFilters(filters)).toEqual({ itens_por_pagina: 50 });
    expect(clearedFilters({ status: 'resgatado' })).toEqual({});
    expect(hasActiveFilters(filters)).toBe(true);
    expect(hasActiveFilters({ itens_por_pagina: 50, page: 3 })).toBe(false);
  });
});

describe('toRequestFilters', () => {
  test('always says the page size; no date field without dates', () => {
    expect(toRequestFilters({})).toEqual({ itens_por_pagina: 15 });
    expect(toRequestFilters({ filtrar_por: 'valido_ate', page: 2 })).toEqual({
      itens_por_pagina: 15,
      page: 2,
    });
  });

  test('with a date, the date field is explicit (the default is data_conquista)', () => {
    expect(toRequestFilters({ data_inicio: '2026-01-01' })).toEqual({
      data_inicio: '2026-01-01',
      filtrar_por: 'data_conquista',
      itens_por_pagina: 15,
    });
    expect(toRequestFilters({ data_fim: '2026-01-31', filtrar_por: 'valido_ate' })).toMatchObject({
      filtrar_por: 'valido_ate',
    });
  });

  test('a range that ends before it starts is caught; equal days are fine', () => {
    expect(dateRangeError({ data_inicio: '2026-01-02', data_fim: '2026-01-01' })).not.toBeNull();
    expect(dateRangeError({ data_inicio: '2026-01-01', data_fim: '2026-01-01' })).toBeNull();
    expect(dateRangeError({ data_inicio: '2026-01-02' })).toBeNull();
  });
});
