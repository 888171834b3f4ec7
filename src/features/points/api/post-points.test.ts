import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { configureApi } from '@/api/client';
import { customerKeys, rewardKeys } from '@/api/keys';
import { createQueryClient } from '@/api/query-client';
import { Customer } from '@/api/schemas';
import {
  acceptedJson,
  customerOf,
  okJson,
  rewardPageWire,
  sentBody,
  stubFetch,
} from '@/testing/fixtures';
import { fieldRefusal } from '@/testing/api';
import { lancamentoWire } from '@/testing/lancamentos';
import { Lancamento } from '#contract/api/postings';
import { afterPosted, fetchLancamento, postPoints } from './post-points';

beforeEach(() => configureApi({ establishmentId: 1 }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const body = {
  valor_gasto: 1050,
  senha_atendente: '1234',
  cliente: { celular: '+5511987654321' },
  itens: [{ descricao: 'Refrigerante lata', qtde: 3, valor: 1050 }],
};
const answer = { id_cliente: 42, id_ponto: 777, saldo_atual: 130, saldo_carencia: 10 };

const SALE = '0b6f3c8e-2a4d-4c1e-9f5a-7d2e8b9c1a30';

test('postPoints posts to pontuar with the sale id and returns the result', async () => {
  const fetchMock = stubFetch(() =>
    okJson({ ...answer, resultado: { pontos: 10 } }, 'Pontos lançados'),
  );
  expect(await postPoints(body, SALE)).toEqual({
    kind: 'posted',
    result: { ...answer, resultado: { pontos: 10 } },
  });
  expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/1/fidelidade/pontuar');
  expect(sentBody(fetchMock)).toEqual(body);
  expect((fetchMock.mock.calls[0]![1]!.headers as Record<string, string>)['Idempotency-Key']).toBe(
    SALE,
  );
});

test("a server that adds nothing to the service's answer: the points are not told", async () => {
  stubFetch(() => okJson(answer, 'Pontos lançados'));
  expect(await postPoints(body, SALE)).toEqual({
    kind: 'posted',
    result: { ...answer, resultado: { pontos: null } },
  });
});

test('a wrong attendant password lands on its field', async () => {
  stubFetch(() => fieldRefusal('senha_atendente', 'Senha do atendente incorreta.'));
  const error = await postPoints(body, SALE).catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'validation', requestMayHaveReached: false });
  expect((error as { fieldErrors: unknown }).fieldErrors).toEqual({
    senha_atendente: ['Senha do atendente incorreta.'],
  });
});

test('no answer within 15 s: timeout, result unknown', async () => {
  vi.useFakeTimers();
  stubFetch(() => new Promise<Response>(() => {}));
  const pending = postPoints(body, SALE).catch((e: unknown) => e);
  await vi.advanceTimersByTimeAsync(15_000);
  expect(await pending).toMatchObject({ kind: 'timeout', requestMayHaveReached: true });
});

test('afterPosted writes the new balances into every cached copy of that customer', async () => {
  const qc = createQueryClient();
  const maria = customerOf();
  const other = customerOf({ id_cliente: 99, celular: '+5521999990000' });
  qc.setQueryData(customerKeys.detail({ kind: 'phone', celular: maria.celular }), maria);
  qc.setQueryData(customerKeys.detail({ kind: 'id', id_cliente: 42 }), maria);
  qc.setQueryData(customerKeys.detail({ kind: 'id', id_cliente: 99 }), other);
  qc.setQueryData(customerKeys.detail({ kind: 'cpf', cpf: '11144477735' }), null);
  qc.setQueryData(rewardKeys.list({}), rewardPageWire());

  await afterPosted(qc, answer);

  for (const key of [
    { kind: 'phone', celular: maria.celular },
    { kind: 'id', id_cliente: 42 },
  ] as const) {
    const cached = qc.getQueryData<Customer>(customerKeys.detail(key));
    expect(cached?.carteira.saldo).toBe(130);
    expect(cached?.carteira.saldo_carencia).toBe(10);
    expect(cached?.carteira.historico).toEqual(maria.carteira.historico);
  }
  expect(
    qc.getQueryData<Customer>(customerKeys.detail({ kind: 'id', id_cliente: 99 }))?.carteira.saldo,
  ).toBe(120);
  expect(qc.getQueryData(customerKeys.detail({ kind: 'cpf', cpf: '11144477735' }))).toBeNull();
  expect(qc.getQueryState(customerKeys.detail({ kind: 'id', id_cliente: 42 }))?.isInvalidated).toBe(
    true,
  );
  expect(qc.getQueryState(rewardKeys.list({}))?.isInvalidated).toBe(true);
});

test('postPoints sends once, even on a 503 (result unknown) or offline (nothing left)', async () => {
  const fetchMock = stubFetch(() => new Response('', { status: 503 }));
  const error = await postPoints(body, SALE).catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'server', requestMayHaveReached: true });
  expect(fetchMock).toHaveBeenCalledTimes(1);
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const offline = stubFetch(() => {
    throw new TypeError('Failed to fetch');
  });
  const error2 = await postPoints(body, SALE).catch((e: unknown) => e);
  expect(error2).toMatchObject({ kind: 'network', requestMayHaveReached: false });
  expect(offline).toHaveBeenCalledTimes(1);
  vi.restoreAllMocks();
});

const lancamento = lancamentoWire({
  chave: SALE,
  estado: 'verificando',
  motivo: 'A resposta do serviço se perdeu. Conferindo no cadastro do cliente…',
  valor_gasto: 1050,
  pontos: null,
});

test('a 202 from the journal is the posting still in progress, to be followed', async () => {
  stubFetch(() => acceptedJson(lancamento, 'Conferindo o lançamento.'));
  expect(await postPoints(body, SALE)).toEqual({
    kind: 'pending',
    // A server from before hand-overs sends neither: a points posting.
    lancamento: { ...lancamento, tipo: 'pontos', premio: null },
  });
});

test('a journal entry of a hand-over reads as one, with its reward', () => {
  const premio = { id_premio: 3, id_premio_cliente: 4, nome: 'Vale-compras de R$ 10,00' };
  const entry = Lancamento.parse({ ...lancamento, tipo: 'premio', premio, valor_gasto: 0 });
  expect(entry).toMatchObject({ tipo: 'premio', premio, pontos: null });
  expect(() => Lancamento.parse({ ...lancamento, tipo: 'brinde' })).toThrow();
});

test('fetchLancamento asks our server for the sale, waiting a few seconds for a change', async () => {
  const fetchMock = stubFetch(() => okJson({ ...lancamento, estado: 'lançado', conferido: true }));
  expect(await fetchLancamento(SALE)).toMatchObject({ chave: SALE, estado: 'lançado' });
  expect(fetchMock.mock.calls[0]![0]).toBe(`/api/lancamentos/${SALE}?esperar=8`);
});
