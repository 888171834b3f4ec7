// Wire fixtures for tests (not imported by app code). Shapes as the sandbox answers.
import { vi } from 'vitest';
import { Config } from '#contract/api/config';
import { REWARD_COUNTER_KEYS, type RewardCounterKey } from '#contract/wire';
import { Customer } from '@/api/schemas';

export function customerWire(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const counters = Object.fromEntries(REWARD_COUNTER_KEYS.map((k) => [k, 0])) as Record<
    RewardCounterKey,
    number
  >;
  return {
    id_cliente: 42,
    nome: 'MARIA DA SILVA',
    email: 'maria@example.com',
    data_cadastro: '2024-05-01 10:20:30',
    celular: '+5511987654321',
    cpf: '52998224725',
    data_nascimento: '1990-01-15',
    genero: 'F',
    cep: '01310100',
    endereco: 'Av. Paulista, 1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
    carteira: {
      saldo: 120,
      saldo_carencia: 0,
      pontos_vencidos: [],
      pontos_vencendo: [
        {
          id_cartela_cliente: 7,
          pontos: 120,
          data: '2024-05-01 10:25:00',
          tipo: 'credito',
          data_validade: '2025-05-31',
        },
      ],
      historico: [
        {
          id_cartela_cliente: 7,
          pontos: 120,
          data: '2024-05-01 10:25:00',
          tipo: 'credito',
          data_validade: '2025-05-31',
        },
      ],
    },
    receita: 120.5,
    compras: 3,
    primeira_compra: '2024-05-01 10:25:00',
    ultima_compra: '2024-06-10 18:00:00',
    ...counters,
    ...overrides,
  };
}

export function rewardWire(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id_premio_cliente: 900,
    id_cliente: 42,
    id_premio: 3,
    valido_ate: '2024-06-30 23:59:59',
    data_resgate: null,
    data_conquista: '2024-05-31 12:00:00',
    estornado_em: null,
    premio_status: 'pendente_resgate',
    categoria_premio: 'premio_fidelidade',
    nome: 'Café grátis',
    ...overrides,
  };
}

export function rewardPageWire(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = 'http://localhost/api/v4/estabelecimentos/1/recompensas';
  return {
    current_page: 1,
    data: [rewardWire()],
    first_page_url: `${base}?page=1`,
    last_page_url: `${base}?page=1`,
    next_page_url: null,
    prev_page_url: null,
    from: 1,
    to: 1,
    per_page: 15,
    last_page: 1,
    total: 1,
    ...overrides,
  };
}

export const ok = (data: unknown, message = 'OK') => ({ success: true, message, data });

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A success as the service (and our server) answers it: 200, `data` in the envelope. */
export const okJson = (data: unknown, message?: string) => jsonResponse(200, ok(data, message));

/** Our server's 202: the request is journaled and its result still being checked (`data`). */
export const acceptedJson = (data: unknown, message?: string) => jsonResponse(202, ok(data, message));

/** The service's answer to a reward list: one page (rewardPageWire with `overrides`). */
export const rewardPageAnswer = (overrides: Record<string, unknown> = {}) =>
  okJson(rewardPageWire(overrides));

/** Our server's /api/contingencia on a calm day: no contingency, nothing kept or waiting. */
export const calmContingency = () => okJson({ contingencia: false, aguardando: 0, atencao: 0 });

/** The customer as the app reads it: customerWire (with `overrides`) parsed. */
export const customerOf = (overrides: Record<string, unknown> = {}) =>
  Customer.parse(customerWire(overrides));

/** Stubs global fetch with a mock answering each call from `answer`. */
export function stubFetch(
  answer: (url: string, init: RequestInit) => Response | Promise<Response>,
) {
  const mock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(answer(String(input), init ?? {})),
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The JSON body the n-th fetch call sent. */
export function sentBody(mock: ReturnType<typeof stubFetch>, call = 0): unknown {
  const init = mock.mock.calls[call]?.[1];
  return init?.body ? JSON.parse(String(init.body)) : undefined;
}

/** The page's config of a counter terminal ("Caixa 1", role caixa) in sandbox mode. */
export const counterConfig = (over: Record<string, unknown> = {}) =>
  Config.parse({
    establishmentId: 1,
    establishmentName: 'Loja Demo',
    mode: 'sandbox',
    enrollment: 'auto',
    terminal: {
      id: 1,
      name: 'Caixa 1',
      role: 'caixa',
      navigation: { caixa: true, premios: false, quiosque: false },
    },
    ...over,
  });
