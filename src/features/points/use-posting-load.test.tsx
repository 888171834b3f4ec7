// The posting flow's code is loaded on first use (it is not in the counter's first load).
// When our server cannot hand it over, nothing is sent, the cashier is told so, and the same
// sale posted again keeps its id.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { configureApi } from '@/api/client';
import type { PostPointsBody } from '@/api/requests';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import { loadPendingSale, savePendingSale } from './pending-sale';
import type { PostingDeps } from './posting-types';
import { usePosting } from './use-posting';
import { renderHookWithQuery } from '@/testing/render';

const flowLoads = vi.hoisted(() => ({ failures: 0 }));
vi.mock('./posting-flow', async (importOriginal) => {
  if (flowLoads.failures > 0) {
    flowLoads.failures--;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return importOriginal();
});

beforeEach(() => {
  configureApi({ establishmentId: 1 });
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

const PONTUAR = '/api/v4/estabelecimentos/1/fidelidade/pontuar';
const body: PostPointsBody = {
  valor_gasto: 2590,
  senha_atendente: '1234',
  cliente: { celular: '+5511987654321' },
};
const answer = { id_cliente: 42, id_ponto: 777, saldo_atual: 145, saldo_carencia: 0 };

function setup(hook: typeof usePosting = usePosting) {
  const deps: PostingDeps = {
    reread: async () => null,
    onPasswordRejected: () => {},
  };
  return renderHookWithQuery(() => hook(deps));
}

test('the flow cannot be loaded: nothing sent, "nada foi lançado", and the retry keeps the sale id', async () => {
  flowLoads.failures = 1;
  const keys: string[] = [];
  const fetchMock = stubFetch((url, init) => {
    if (url === PONTUAR) {
      keys.push((init?.headers as Record<string, string>)['Idempotency-Key'] ?? '');
    }
    return jsonResponse(200, ok(answer));
  });
  const uuid = vi.spyOn(crypto, 'randomUUID');
  const { result } = setup();

  let error: Awaited<ReturnType<typeof result.current.post>> = null;
  await act(async () => {
    error = await result.current.post(body, null);
  });
  expect(error).not.toBeNull();
  expect(result.current.phase).toMatchObject({ name: 'failed' });
  const phase = result.current.phase as { error: Error & { requestMayHaveReached: boolean } };
  expect(phase.error.message).toContain('nada foi lançado');
  expect(phase.error.requestMayHaveReached).toBe(false);
  expect(fetchMock).not.toHaveBeenCalled();
  expect(loadPendingSale()).toBeNull(); // nothing left to resume on a reload
  expect(result.current.locked).toBe(false);

  await act(async () => void (await result.current.post(body, null)));
  await waitFor(() => expect(result.current.phase.name).toBe('posted'));
  expect(keys).toHaveLength(1);
  expect(uuid).toHaveBeenCalledTimes(1); // the second try is the same sale
  expect(keys[0]).toBe(uuid.mock.results[0]!.value);
});

test('a sale left pending by a reload whose flow cannot be loaded: the counter says so, sends nothing, keeps the sale for the next load', async () => {
  const pending = {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    body,
    before: null,
    at: Date.now(),
  };
  savePendingSale(pending);
  const fetchMock = stubFetch(() => jsonResponse(200, ok(answer)));
  // A fresh module graph: this page load has not loaded the flow yet.
  vi.resetModules();
  vi.doMock('./posting-flow', () => {
    throw new TypeError('Failed to fetch dynamically imported module');
  });
  const fresh = await import('./use-posting');
  const { result } = setup(fresh.usePosting);
  await waitFor(() => expect(result.current.phase.name).toBe('verify-failed'));
  const phase = result.current.phase as { error: Error };
  expect(phase.error.message).toBe('Não foi possível falar com o servidor do caixa.');
  // The sale may be in the balance: no new posting from this counter until it is known.
  expect(result.current.locked).toBe(true);
  await act(async () => void (await result.current.post(body, null)));
  expect(fetchMock).not.toHaveBeenCalled();
  expect(loadPendingSale()).toEqual(pending); // followed again after the next load
});
