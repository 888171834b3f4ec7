// Following a posting whose answer was lost: the pauses between follow-ups grow with jitter
// up to a cap, and a counter that cannot reach its server stops asking by itself after
// MAX_FOLLOW_UPS pauses, leaving "Conferir de novo" to the cashier (the sale stays pending).
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { configureApi } from '@/api/client';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import { lancamentoWire } from '@/testing/lancamentos';
import { FOLLOW_MAX_PAUSE_MS, MAX_FOLLOW_UPS, followPause } from './follow';
import { loadPendingSale } from './pending-sale';
import type { PostingDeps } from './posting-types';
import { usePosting } from './use-posting';
import { renderHookWithQuery } from '@/testing/render';

const pauses = vi.hoisted(() => ({ asked: [] as [number, number][] }));
vi.mock('./follow', async (importOriginal) => {
  const real = await importOriginal<typeof import('./follow')>();
  return {
    ...real,
    // Recorded, and a millisecond long: the test runs the whole loop.
    followPause: (base: number, n: number) => {
      pauses.asked.push([base, n]);
      return 1;
    },
  };
});

beforeEach(() => {
  configureApi({ establishmentId: 1 });
  sessionStorage.clear();
  pauses.asked = [];
});
afterEach(() => vi.unstubAllGlobals());

test('pauses double from their base to 30 s, each within ±20%', async () => {
  const { followPause: real } = await vi.importActual<typeof import('./follow')>('./follow');
  expect(followPause).not.toBe(real);
  const low = (n: number) => real(3_000, n, () => 0);
  const high = (n: number) => real(3_000, n, () => 1);
  expect([0, 1, 2, 3, 4, 20].map(low)).toEqual([2_400, 4_800, 9_600, 19_200, 24_000, 24_000]);
  expect([0, 1, 2, 3, 4, 20].map(high)).toEqual([3_600, 7_200, 14_400, 28_800, 36_000, 36_000]);
  const spread = new Set(Array.from({ length: 50 }, () => real(5_000, 0)));
  expect(spread.size).toBeGreaterThan(40);
  expect(FOLLOW_MAX_PAUSE_MS).toBe(30_000);
});

const postsTo = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([u]) => String(u).endsWith('/fidelidade/pontuar')).length;

test('a server out of reach is asked at growing pauses, then the counter stops and says so', async () => {
  let key = '';
  const fetchMock = stubFetch((url, init) => {
    if (url === '/api/v4/estabelecimentos/1/fidelidade/pontuar') {
      key = (init?.headers as Record<string, string>)['Idempotency-Key'] ?? '';
    }
    throw new TypeError('Failed to fetch'); // the answer lost, then the server unreachable
  });
  const deps: PostingDeps = {
    reread: async () => null,
    onPasswordRejected: () => {},
  };
  const { result } = renderHookWithQuery(() => usePosting(deps));
  await act(async () => {
    void result.current.post(
      { valor_gasto: 2590, senha_atendente: '1234', cliente: { celular: '+5511987654321' } },
      null,
    );
  });
  await waitFor(() =>
    expect(result.current.phase).toMatchObject({ name: 'verify-failed', stopped: true }),
  );
  const follows = fetchMock.mock.calls.filter(([u]) =>
    String(u).startsWith(`/api/lancamentos/${key}`),
  ).length;
  console.log(`[follow] lancamento reads=${follows} pauses=${pauses.asked.length}`);
  expect(pauses.asked).toEqual(Array.from({ length: MAX_FOLLOW_UPS }, (_, n) => [3_000, n]));
  expect(follows).toBe(MAX_FOLLOW_UPS + 1);
  // Still pending: nothing is posted again, and the next load follows it anew.
  expect(result.current.locked).toBe(true);
  expect(loadPendingSale()).toMatchObject({ id: key });
  // "Conferir de novo" once the server is back: followed anew, to its result.
  const settled = lancamentoWire({
    chave: key,
    estado: 'recusado',
    motivo: 'O serviço recusou a compra.',
    pontos: null,
    conferido: true,
  });
  fetchMock.mockImplementation(async () => jsonResponse(200, ok(settled)));
  await act(async () => void (await result.current.verify()));
  await waitFor(() => expect(result.current.locked).toBe(false));
  expect(postsTo(fetchMock)).toBe(1); // never sent again
  expect(loadPendingSale()).toBeNull();
});
