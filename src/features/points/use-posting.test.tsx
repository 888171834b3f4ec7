import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { apiRequest, configureApi } from '@/api/client';
import { createQueryClient } from '@/api/query-client';
import { Customer } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';
import { customerWire, jsonResponse, ok, sentBody, stubFetch } from '@/api/test-fixtures';
import {
  postingLanded,
  rewardsWon,
  snapshotOf,
  usePosting,
  type PostingDeps,
  type RereadTarget,
} from './use-posting';

beforeEach(() => configureApi({ establishmentId: 1 }));
afterEach(() => vi.unstubAllGlobals());

const customer = (over: Record<string, unknown> = {}) => Customer.parse(customerWire(over));

// The demo fixture: id 42, 3 purchases, last one 2024-06-10 18:00:00, no rewards won.
const maria = customer();
const body: PostPointsBody = {
  valor_gasto: 2590,
  senha_atendente: '1234',
  cliente: { celular: '+5511987654321' },
};
const answer = { id_cliente: 42, id_ponto: 777, saldo_atual: 145, saldo_carencia: 0 };

const PONTUAR = '/api/v4/estabelecimentos/1/fidelidade/pontuar';
const postsTo = (mock: ReturnType<typeof stubFetch>, url: string) =>
  mock.mock.calls.filter(([u]) => String(u) === url).length;

describe('rewardsWon', () => {
  test('adds the conquistados counters of the five categories, nothing else', () => {
    const c = customer({
      conquistados_premio_fidelidade: 2,
      conquistados_brinde_roleta: 1,
      conquistados_premio_campanha: 3,
      conquistados_premio_surpresa: 0,
      conquistados_premio_game: 4,
      pendente_resgate_premio_fidelidade: 2,
      resgatado_premio_campanha: 3,
      expirado_premio_game: 1,
    });
    expect(rewardsWon(c)).toBe(10);
  });
});

describe('snapshotOf', () => {
  test('a customer not registered yet has no snapshot', () => {
    expect(snapshotOf(null)).toBeNull();
  });

  test('keeps what tells whether a posting landed: purchases, last purchase, rewards won', () => {
    expect(snapshotOf(customer({ conquistados_premio_fidelidade: 1 }))).toEqual({
      id_cliente: 42,
      compras: 3,
      ultima_compra: '2024-06-10 18:00:00',
      won: 1,
    });
  });

  test('a customer who never bought has null as last purchase', () => {
    expect(snapshotOf(customer({ compras: 0, ultima_compra: null }))?.ultima_compra).toBeNull();
  });
});

describe('postingLanded', () => {
  const before = snapshotOf(maria);

  test('one more purchase: landed', () => {
    expect(postingLanded(before, customer({ compras: 4 }))).toBe(true);
  });

  test('a new last purchase with the same count: landed', () => {
    expect(postingLanded(before, customer({ ultima_compra: '2024-06-11 09:00:00' }))).toBe(true);
  });

  test('same purchases and same last purchase: not landed', () => {
    expect(postingLanded(before, customer())).toBe(false);
  });

  test('a customer that still does not exist: not landed', () => {
    expect(postingLanded(before, null)).toBe(false);
    expect(postingLanded(null, null)).toBe(false);
  });

  test('a new customer that now exists with a purchase: landed', () => {
    expect(postingLanded(null, customer({ compras: 1 }))).toBe(true);
  });

  test('a new customer that exists without purchases (registered elsewhere): not landed', () => {
    expect(postingLanded(null, customer({ compras: 0, ultima_compra: null }))).toBe(false);
  });
});

function setup(over: Partial<PostingDeps> = {}) {
  const deps = {
    reread: vi.fn<(t: RereadTarget) => Promise<Customer | null>>(async () => customer()),
    newestRewardNames: vi.fn<(id: number, count: number) => Promise<string[]>>(async () => []),
    onPasswordRejected: vi.fn<() => void>(),
    onPosted: vi.fn(),
    ...over,
  };
  const qc = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => usePosting(deps), { wrapper });
  return { deps, result: hook.result };
}

describe('usePosting', () => {
  test('two post() calls in the same tick send one request', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok(answer)));
    const { result, deps } = setup({ reread: vi.fn(async () => customer({ compras: 4 })) });
    const snap = snapshotOf(maria);
    let outcomes: unknown[] = [];
    await act(async () => {
      outcomes = await Promise.all([
        result.current.post(body, snap),
        result.current.post(body, snap),
      ]);
    });
    expect(outcomes).toEqual([null, null]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(postsTo(fetchMock, PONTUAR)).toBe(1);
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(deps.onPosted).toHaveBeenCalledTimes(1);
  });

  test('a posting that landed is not sent again until the next sale', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok(answer)));
    const { result } = setup();
    const snap = snapshotOf(maria);
    // The second confirmation arrives after the answer, before React shows "posted".
    await act(async () => {
      await result.current.post(body, snap);
      await result.current.post(body, snap);
    });
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === PONTUAR)).toHaveLength(1);
    act(() => result.current.reset());
    await act(() => result.current.post(body, snap));
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === PONTUAR)).toHaveLength(2);
  });

  test('while the request is in flight the phase is "sending" and posting is locked', async () => {
    let release: (r: Response) => void = () => {};
    const fetchMock = stubFetch(() => new Promise<Response>((r) => (release = r)));
    const { result } = setup();
    let sent!: Promise<unknown>;
    act(() => {
      sent = result.current.post(body, snapshotOf(maria));
    });
    expect(result.current.phase.name).toBe('sending');
    expect(result.current.locked).toBe(true);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(result.current.phase.name).toBe('sending');
    await act(async () => {
      release(jsonResponse(200, ok(answer)));
      await sent;
    });
    expect(result.current.phase).toMatchObject({
      name: 'posted',
      posted: { id_cliente: 42, saldo_atual: 145, valor: 2590, verified: false },
    });
    expect(result.current.locked).toBe(true);
  });

  test('a posting answered by the service re-reads the customer and names the reward won', async () => {
    stubFetch(() => jsonResponse(200, ok(answer)));
    const { result, deps } = setup({
      reread: vi.fn(async () => customer({ compras: 4, conquistados_premio_fidelidade: 1 })),
      newestRewardNames: vi.fn(async () => ['Café grátis']),
    });
    await act(() => result.current.post(body, snapshotOf(maria)));
    await waitFor(() =>
      expect(result.current.phase).toMatchObject({
        name: 'posted',
        posted: { rewards: { state: 'done', count: 1, names: ['Café grátis'] } },
      }),
    );
    expect(deps.reread).toHaveBeenCalledWith({ id_cliente: 42 });
    expect(deps.newestRewardNames).toHaveBeenCalledWith(42, 1);
  });

  test('a lost answer re-reads the customer instead of posting again, and reports it posted', async () => {
    // The re-read goes over the wire too, so the request log shows what was sent.
    const fetchMock = stubFetch((url) => {
      if (url === PONTUAR) throw new TypeError('Failed to fetch');
      return jsonResponse(
        200,
        ok(
          customerWire({
            compras: 4,
            ultima_compra: '2024-06-11 09:00:00',
            carteira: {
              ...(customerWire().carteira as Record<string, unknown>),
              saldo: 146,
            },
          }),
        ),
      );
    });
    const reread = vi.fn((target: RereadTarget) =>
      apiRequest({ method: 'POST', path: '/clientes/buscar', body: target, schema: Customer }),
    );
    const { result, deps } = setup({ reread });
    let returned: unknown = 'not returned';
    await act(async () => {
      returned = await result.current.post(body, snapshotOf(maria));
    });
    expect(returned).toBeNull(); // nothing for the form to show: the outcome is being checked
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(result.current.phase).toMatchObject({
      name: 'posted',
      posted: { id_cliente: 42, id_ponto: null, saldo_atual: 146, valor: 2590, verified: true },
    });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      PONTUAR,
      '/api/v4/estabelecimentos/1/clientes/buscar',
    ]);
    expect(sentBody(fetchMock, 1)).toEqual({ id_cliente: 42 });
    expect(deps.onPosted).toHaveBeenCalledTimes(1);
  });

  test('a lost answer whose re-read shows no new purchase ends "not-posted"', async () => {
    const fetchMock = stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const { result, deps } = setup({ reread: vi.fn(async () => customer()) });
    await act(() => result.current.post(body, snapshotOf(maria)));
    await waitFor(() => expect(result.current.phase.name).toBe('not-posted'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(deps.onPosted).not.toHaveBeenCalled();
    expect(result.current.locked).toBe(false);
  });

  test('after "not-posted" the cashier may post again, and that sends a second request', async () => {
    let call = 0;
    const fetchMock = stubFetch(() => {
      if (call++ === 0) throw new TypeError('Failed to fetch');
      return jsonResponse(200, ok(answer));
    });
    const { result } = setup({ reread: vi.fn(async () => customer()) });
    await act(() => result.current.post(body, snapshotOf(maria)));
    await waitFor(() => expect(result.current.phase.name).toBe('not-posted'));
    await act(() => result.current.post(body, snapshotOf(maria)));
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  test('a lost answer for a new customer re-reads by the phone that was sent', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const { result, deps } = setup({ reread: vi.fn(async () => null) });
    await act(() =>
      result.current.post(
        { ...body, cliente: { celular: '+5511912345678', nome: 'Ana' } },
        snapshotOf(null),
      ),
    );
    await waitFor(() => expect(result.current.phase.name).toBe('not-posted'));
    expect(deps.reread).toHaveBeenCalledWith({ celular: '+5511912345678' });
  });

  test('a failed re-read leaves the result unknown; checking again can settle it', async () => {
    const fetchMock = stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const reread = vi
      .fn<(t: RereadTarget) => Promise<Customer | null>>()
      .mockRejectedValueOnce(new TypeError('still offline'))
      .mockResolvedValueOnce(customer({ compras: 4 }));
    const { result } = setup({ reread });
    await act(() => result.current.post(body, snapshotOf(maria)));
    await waitFor(() => expect(result.current.phase.name).toBe('verify-failed'));
    expect(result.current.locked).toBe(true);
    await act(() => result.current.verify());
    await waitFor(() =>
      expect(result.current.phase).toMatchObject({ name: 'posted', posted: { verified: true } }),
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(reread).toHaveBeenCalledTimes(2);
  });

  test('a 422 on senha_atendente asks for the password again and ends "failed"', async () => {
    stubFetch(() =>
      jsonResponse(422, {
        success: false,
        message: 'Senha do atendente incorreta.',
        data: {},
        errors: { senha_atendente: ['Senha do atendente incorreta.'] },
      }),
    );
    const { result, deps } = setup();
    let returned: unknown;
    await act(async () => {
      returned = await result.current.post(body, snapshotOf(maria));
    });
    expect(deps.onPasswordRejected).toHaveBeenCalledTimes(1);
    expect(deps.reread).not.toHaveBeenCalled();
    expect(result.current.phase).toMatchObject({
      name: 'failed',
      error: { kind: 'validation', message: 'Senha do atendente incorreta.' },
    });
    expect(returned).toMatchObject({ kind: 'validation', status: 422 });
    expect(result.current.locked).toBe(false);
  });

  test('a 422 on another field does not touch the shift', async () => {
    stubFetch(() =>
      jsonResponse(422, {
        success: false,
        message: 'Valor inválido.',
        data: {},
        errors: { 'itens.0.valor': ['Valor inválido.'] },
      }),
    );
    const { result, deps } = setup();
    await act(() => result.current.post(body, snapshotOf(maria)));
    expect(deps.onPasswordRejected).not.toHaveBeenCalled();
    expect(result.current.phase.name).toBe('failed');
  });

  test('reset goes back to editing', async () => {
    stubFetch(() => jsonResponse(200, ok(answer)));
    const { result } = setup();
    await act(() => result.current.post(body, snapshotOf(maria)));
    act(() => result.current.reset());
    expect(result.current.phase).toEqual({ name: 'editing' });
    expect(result.current.locked).toBe(false);
  });
});
