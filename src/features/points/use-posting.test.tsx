import { beforeEach, describe, expect, test, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { Customer, RewardRecord } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';
import {
  acceptedJson,
  customerOf,
  customerWire,
  ok,
  okJson,
  rewardPageAnswer,
  rewardWire,
  stubFetch,
} from '@/testing/fixtures';
import {
  fieldRefusal,
  idempotencyKeyOf,
  loseAnswerAt,
  neverReachAt,
  refusal,
  stubServiceEachTest,
} from '@/testing/api';
import { lancamentoWire } from '@/testing/lancamentos';
import { loadPendingSale, savePendingSale } from './pending-sale';
import { rewardsWon } from './posting-answers';
import { snapshotOf } from './posting-flow';
import type { PostingDeps, RereadTarget } from './posting-types';
import { usePosting } from './use-posting';
import { renderHookWithQuery } from '@/testing/render';

stubServiceEachTest();

// The demo fixture: id 42, 3 purchases, last one 2024-06-10 18:00:00, no rewards won.
const maria = customerOf();
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
    const c = customerOf({
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
    expect(snapshotOf(customerOf({ conquistados_premio_fidelidade: 1 }))).toEqual({
      id_cliente: 42,
      compras: 3,
      ultima_compra: '2024-06-10 18:00:00',
      won: 1,
    });
  });

  test('a customer who never bought has null as last purchase', () => {
    expect(snapshotOf(customerOf({ compras: 0, ultima_compra: null }))?.ultima_compra).toBeNull();
  });
});

function setup(over: Partial<PostingDeps> = {}) {
  const deps = {
    reread: vi.fn<(t: RereadTarget) => Promise<Customer | null>>(async () => customerOf()),
    onPasswordRejected: vi.fn<() => void>(),
    onPosted: vi.fn(),
    ...over,
  };
  const hook = renderHookWithQuery(() => usePosting(deps));
  return { deps, result: hook.result, unmount: hook.unmount };
}

const lancamento = (chave: string, over: Record<string, unknown> = {}) =>
  lancamentoWire({ chave, resposta: { status: 200, corpo: ok(answer) }, ...over });

beforeEach(() => sessionStorage.clear());

describe('usePosting', () => {
  test('a sale gets an id, kept with its body before the request leaves, sent as Idempotency-Key', async () => {
    let keptWhenSent: unknown = null;
    const fetchMock = stubFetch((url) => {
      if (url === PONTUAR) keptWhenSent = loadPendingSale();
      return okJson(answer);
    });
    const { result, deps } = setup({ reread: vi.fn(async () => customerOf({ compras: 4 })) });
    await act(async () => {
      await Promise.all([
        result.current.post(body, snapshotOf(maria)),
        result.current.post(body, snapshotOf(maria)), // a double click: one request
      ]);
    });
    expect(postsTo(fetchMock, PONTUAR)).toBe(1);
    const key = idempotencyKeyOf(fetchMock.mock.calls[0]![1]!);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(keptWhenSent).toMatchObject({ id: key, body });
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(deps.onPosted).toHaveBeenCalledTimes(1);
    expect(loadPendingSale()).toBeNull();
    // Landed: not sent again until the next sale.
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    expect(postsTo(fetchMock, PONTUAR)).toBe(1);
  });

  test('a lost answer is followed on the server, never sent again: lançado (conferido)', async () => {
    const { fetchMock, lostKey } = loseAnswerAt(PONTUAR, (key) => okJson(lancamento(key)));
    const { result } = setup();
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, PONTUAR)).toBe(1);
    expect(
      fetchMock.mock.calls.some(([u]) => String(u).startsWith(`/api/lancamentos/${lostKey()}`)),
    ).toBe(true);
    const phase = result.current.phase;
    expect(phase.name === 'posted' && phase.posted).toMatchObject({
      saleId: lostKey(),
      verified: true,
      saldo_atual: 145,
      id_ponto: 777,
      pontos: 25, // the journal's, with its verdict
    });
  });

  test('the points the answer tells show at once, with no follow-up to our server', async () => {
    const fetchMock = stubFetch(() => okJson({ ...answer, resultado: { pontos: 25 } }));
    let refreshed!: (c: Customer | null) => void;
    const { result, deps } = setup({
      reread: vi.fn(() => new Promise<Customer | null>((r) => (refreshed = r))),
    });
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    // Before the customer's refresh has answered: the result is complete already.
    await waitFor(() => {
      const phase = result.current.phase;
      expect(phase.name === 'posted' && phase.posted).toMatchObject({
        pontos: 25,
        saldo_atual: 145,
        rewards: { state: 'checking' },
      });
    });
    await act(async () => refreshed(customerOf({ compras: 4 })));
    expect(deps.reread).toHaveBeenCalledExactlyOnceWith({ celular: '+5511987654321' });
    const asked = fetchMock.mock.calls.map(([u]) => String(u));
    expect(asked).toEqual([PONTUAR]);
  });

  test('the next customer before the refresh answers: the posted customer does not open again', async () => {
    stubFetch(() => okJson({ ...answer, resultado: { pontos: 25 } }));
    let refreshed!: (c: Customer | null) => void;
    const { result, deps } = setup({
      reread: vi.fn(() => new Promise<Customer | null>((r) => (refreshed = r))),
    });
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    act(() => result.current.reset()); // Esc: the next customer
    await act(async () => refreshed(customerOf({ compras: 4 })));
    expect(deps.onPosted).not.toHaveBeenCalled();
    expect(result.current.phase.name).toBe('editing');
  });

  test('the answer does not tell the points: the refresh of the customer does (its newest credit)', async () => {
    const fetchMock = stubFetch(() => okJson({ ...answer, resultado: { pontos: null } }));
    const newest = {
      id_cartela_cliente: 8,
      pontos: 25,
      tipo: 'credito',
      data: '2024-06-11 09:00:00',
      data_validade: '2025-06-30',
    };
    const after = customerOf({
      compras: 4,
      ultima_compra: '2024-06-11 09:00:00',
      carteira: { ...(customerWire().carteira as object), historico: [newest] },
    });
    const { result } = setup({ reread: vi.fn(async () => after) });
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => {
      const phase = result.current.phase;
      expect(phase.name === 'posted' && phase.posted).toMatchObject({
        pontos: 25,
        rewards: { state: 'done', count: 0 },
      });
    });
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual([PONTUAR]);
  });

  test('a posting that won a reward brings the reward, for "Entregar agora", in one read', async () => {
    const won = rewardWire({
      id_premio_cliente: 901,
      nome: 'Vale-compras de R$ 10,00',
      data_conquista: '2024-06-11 09:00:00',
    });
    const older = rewardWire({ id_premio_cliente: 900, nome: 'Café grátis' });
    const fetchMock = stubFetch((url) =>
      url === PONTUAR ? okJson(answer) : rewardPageAnswer({ data: [older, won], total: 2, to: 2 }),
    );
    const { result } = setup({
      reread: vi.fn(async () => customerOf({ compras: 4, conquistados_premio_fidelidade: 1 })),
    });
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => {
      const phase = result.current.phase;
      expect(phase.name === 'posted' && phase.posted.rewards).toEqual({
        state: 'done',
        count: 1,
        names: ['Vale-compras de R$ 10,00'],
        records: [RewardRecord.parse(won)],
      });
    });
    const reads = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u !== PONTUAR);
    expect(reads).toEqual([
      '/api/v4/estabelecimentos/1/recompensas?id_cliente=42&status=pendente_resgate&itens_por_pagina=100',
    ]);
  });

  test('neither the answer nor the refresh tells the points: left unsaid', async () => {
    stubFetch(() => okJson(answer));
    // The refresh shows the same purchases as before: it cannot tell which credit is this one.
    const { result } = setup({ reread: vi.fn(async () => customerOf()) });
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => {
      const phase = result.current.phase;
      expect(phase.name === 'posted' && phase.posted.rewards.state).toBe('done');
    });
    const phase = result.current.phase;
    expect(phase.name === 'posted' && phase.posted.pontos).toBeNull();
  });

  test('the server says it was not posted: "não lançado" with its reason; a new sale may follow', async () => {
    const reason = 'A resposta do serviço se perdeu e o cadastro do cliente não mostra a compra.';
    let key = '';
    stubFetch((url, init) => {
      if (url === PONTUAR) {
        key = idempotencyKeyOf(init)!;
        return acceptedJson(lancamento(key, { estado: 'verificando', resposta: null }));
      }
      return okJson(lancamento(key, { estado: 'recusado', motivo: reason, resposta: null }));
    });
    const { result } = setup();
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => expect(result.current.phase).toEqual({ name: 'not-posted', reason }));
    expect(result.current.locked).toBe(false);
    expect(loadPendingSale()).toBeNull();
  });

  test('the service refuses the password: failed on its field, the shift asks for it again', async () => {
    stubFetch(() => fieldRefusal('senha_atendente', 'Senha do atendente incorreta.'));
    const { result, deps } = setup();
    let error: unknown;
    await act(async () => {
      error = await result.current.post(body, snapshotOf(maria));
    });
    expect(error).toMatchObject({ kind: 'validation' });
    expect(result.current.phase.name).toBe('failed');
    expect(deps.onPasswordRejected).toHaveBeenCalledTimes(1);
    expect(loadPendingSale()).toBeNull();
  });

  test('after a reload the pending sale is followed to its result, not posted again', async () => {
    const sale = { id: '5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d', body, before: null, at: 1 };
    savePendingSale(sale);
    const fetchMock = stubFetch(() => okJson(lancamento(sale.id)));
    const { result } = setup();
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, PONTUAR)).toBe(0);
    expect(loadPendingSale()).toBeNull();
  });

  test('a pending sale the server never received (reloaded before it left) is sent with its own id', async () => {
    const sale = { id: '6c2d3e4f-5061-4b7c-8d9e-0f1a2b3c4d5e', body, before: null, at: 1 };
    savePendingSale(sale);
    const fetchMock = stubFetch((url, init) => {
      if (url === PONTUAR) {
        expect(idempotencyKeyOf(init)).toBe(sale.id);
        return okJson(answer);
      }
      return refusal(404, 'Lançamento não encontrado.');
    });
    const { result } = setup();
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, PONTUAR)).toBe(1);
  });

  test('a request that never reached the server: "não lançado"; posting it again keeps its id', async () => {
    const { fetchMock, keys, reach } = neverReachAt(PONTUAR, () => okJson(answer));
    const { result } = setup();
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => expect(result.current.phase.name).toBe('not-posted'), { timeout: 3000 });
    reach();
    await act(async () => void (await result.current.post(body, snapshotOf(maria))));
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, PONTUAR)).toBe(2);
    expect(keys[0]).toBe(keys[1]);
  });
});

describe('usePosting with a PDV sale', () => {
  const LANCAR = '/api/integracao/balcao/vendas/pdv-7/lancar';
  const pdvBody: PostPointsBody = {
    valor_gasto: 4590,
    senha_atendente: '1234',
    cliente: { celular: '+5511987654321' },
    itens: [{ descricao: 'Café', qtde: 2, valor: 900 }, { valor: 3690 }],
  };

  test('posts once through the PDV route, with the customer and password only, keyed as any sale', async () => {
    let keptWhenSent: unknown = null;
    const fetchMock = stubFetch((url) => {
      if (url === LANCAR) keptWhenSent = loadPendingSale();
      return okJson(answer);
    });
    const { result } = setup();
    await act(async () => {
      await Promise.all([
        result.current.post(pdvBody, snapshotOf(maria), 'pdv-7'),
        result.current.post(pdvBody, snapshotOf(maria), 'pdv-7'), // a held Enter: one request
      ]);
    });
    expect(postsTo(fetchMock, LANCAR)).toBe(1);
    expect(postsTo(fetchMock, PONTUAR)).toBe(0);
    const init = fetchMock.mock.calls.find(([u]) => String(u) === LANCAR)![1]!;
    const key = idempotencyKeyOf(init);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The server takes the amount and basket from the PDV's sale: only who and the password.
    expect(JSON.parse(String(init.body))).toEqual({
      cliente: { celular: '+5511987654321' },
      senha_atendente: '1234',
    });
    expect(keptWhenSent).toMatchObject({ id: key, pdv: 'pdv-7', body: pdvBody });
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    const phase = result.current.phase;
    expect(phase.name === 'posted' && phase.posted.valor).toBe(4590);
    expect(loadPendingSale()).toBeNull();
  });

  test('a lost answer is followed at /api/lancamentos/{key}, never sent again', async () => {
    const { fetchMock, lostKey } = loseAnswerAt(LANCAR, (key) =>
      okJson(lancamento(key, { valor_gasto: 4590, pontos: 45 })),
    );
    const { result } = setup();
    await act(async () => void (await result.current.post(pdvBody, snapshotOf(maria), 'pdv-7')));
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, LANCAR)).toBe(1);
    const phase = result.current.phase;
    expect(phase.name === 'posted' && phase.posted).toMatchObject({
      saleId: lostKey(),
      pontos: 45,
    });
  });

  test('a reload sends a pending PDV sale the server never saw through the PDV route, same key', async () => {
    savePendingSale({
      id: 'b3f1c1de-0000-4000-8000-000000000001',
      body: pdvBody,
      before: null,
      at: 1,
      pdv: 'pdv-7',
    });
    const keys: string[] = [];
    const fetchMock = stubFetch((url, init) => {
      if (url === LANCAR) {
        keys.push(idempotencyKeyOf(init)!);
        return okJson(answer);
      }
      return refusal(404, 'Lançamento não encontrado.');
    });
    const { result } = setup();
    await waitFor(() => expect(result.current.phase.name).toBe('posted'));
    expect(postsTo(fetchMock, PONTUAR)).toBe(0);
    expect(keys).toEqual(['b3f1c1de-0000-4000-8000-000000000001']);
  });
});
