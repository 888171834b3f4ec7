import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { configureApi } from '@/api/client';
import { createQueryClient } from '@/api/query-client';
import type { RewardFilters } from '@/api/requests';
import { jsonResponse, ok, rewardPageWire, rewardWire, stubFetch } from '@/testing/fixtures';
import { listRewards, rewardsQuery } from './list-rewards';

beforeEach(() => configureApi({ establishmentId: 1 }));
afterEach(() => vi.unstubAllGlobals());

test('listRewards sends only the set filters', async () => {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(rewardPageWire())));
  const page = await listRewards({
    status: 'pendente_resgate',
    categoria: undefined,
    q: '',
    data_inicio: '2024-05-01',
    data_fim: '2024-05-31',
    filtrar_por: 'data_conquista',
    itens_por_pagina: 15,
    page: 2,
  });
  expect(page.total).toBe(1);
  expect(fetchMock.mock.calls[0]![0]).toBe(
    '/api/v4/estabelecimentos/1/recompensas?status=pendente_resgate&data_inicio=2024-05-01&data_fim=2024-05-31&filtrar_por=data_conquista&itens_por_pagina=15&page=2',
  );
  expect(fetchMock.mock.calls[0]![1]?.method).toBe('GET');
});

test('no filters: no query string', async () => {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(rewardPageWire())));
  await listRewards({});
  expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/1/recompensas');
});

test('rewardsQuery keeps the previous page while the next loads', () => {
  expect(rewardsQuery({ page: 2 }).placeholderData).toBeTypeOf('function');
});

test('rewardsQuery shows the previous page as placeholder while the next one loads', async () => {
  const qc = createQueryClient();
  let release: () => void = () => {};
  stubFetch((url) => {
    if (url.endsWith('page=2')) {
      return new Promise<Response>((resolve) => {
        release = () =>
          resolve(
            jsonResponse(
              200,
              ok(rewardPageWire({ current_page: 2, data: [rewardWire({ id_premio_cliente: 2 })] })),
            ),
          );
      });
    }
    return jsonResponse(200, ok(rewardPageWire()));
  });
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: qc }, children);
  const { result, rerender } = renderHook(
    ({ filters }: { filters: RewardFilters }) => useQuery(rewardsQuery(filters)),
    {
      wrapper,
      initialProps: { filters: {} },
    },
  );
  await waitFor(() => expect(result.current.data?.current_page).toBe(1));
  rerender({ filters: { page: 2 } });
  await waitFor(() => expect(result.current.isPlaceholderData).toBe(true));
  expect(result.current.data?.current_page).toBe(1);
  release();
  await waitFor(() => expect(result.current.data?.current_page).toBe(2));
});
