import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import * as z from 'zod/mini';
import { QueryClient } from '@tanstack/react-query';
import {
  apiRequest,
  buildApiUrl,
  buildQuery,
  configQuery,
  peekPageConfig,
  configureApi,
  DEFAULT_TIMEOUT_MS,
  fetchConfig,
} from './client';
import { ApiError } from './errors';
import { Customer } from './schemas';
import { customerWire, jsonResponse, ok, sentBody, stubFetch } from '@/testing/fixtures';

beforeEach(() => configureApi({ establishmentId: 7 }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const Thing = z.object({ n: z.int() });
const getThing = (extra: Partial<Parameters<typeof apiRequest>[0]> = {}) =>
  apiRequest({ method: 'GET', path: '/coisa', schema: Thing, ...extra });

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('URL building', () => {
  test('paths are relative to the configured establishment', () => {
    expect(buildApiUrl('/clientes/buscar')).toBe('/api/v4/estabelecimentos/7/clientes/buscar');
    configureApi({ establishmentId: 2 });
    expect(buildApiUrl('/recompensas', { page: 2 })).toBe(
      '/api/v4/estabelecimentos/2/recompensas?page=2',
    );
  });
  test('a path without a leading slash is a programming error', () => {
    expect(() => buildApiUrl('clientes')).toThrow(/must start/);
  });
  test('query strings carry only set values, encoded', () => {
    expect(
      buildQuery({ status: 'resgatado', q: '', categoria: undefined, id_cliente: null, page: 3 }),
    ).toBe('?status=resgatado&page=3');
    expect(buildQuery({ q: 'café & pão' })).toBe('?q=caf%C3%A9+%26+p%C3%A3o');
    expect(buildQuery({})).toBe('');
    expect(buildQuery(undefined)).toBe('');
    expect(buildQuery({ q: '   ' })).toBe('');
  });
});

describe('a successful request', () => {
  test('sends JSON with the right method, URL and headers and returns data', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok({ n: 5 })));
    const result = await apiRequest({
      method: 'POST',
      path: '/clientes/buscar',
      body: { celular: '+5511987654321' },
      schema: Thing,
      headers: { 'x-sandbox-now': '2026-11-23T09:00:00-03:00' },
    });
    expect(result).toEqual({ n: 5 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v4/estabelecimentos/7/clientes/buscar');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'x-sandbox-now': '2026-11-23T09:00:00-03:00',
    });
    expect(sentBody(fetchMock)).toEqual({ celular: '+5511987654321' });
  });
  test('GET sends no body and puts the query in the URL', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok({ n: 1 })));
    await getThing({ query: { page: 2, q: 'café' } });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/7/coisa?page=2&q=caf%C3%A9');
    expect(fetchMock.mock.calls[0]![1]?.body).toBeUndefined();
  });
  test('parses a full customer', async () => {
    stubFetch(() => jsonResponse(200, ok(customerWire())));
    const customer = await apiRequest({
      method: 'POST',
      path: '/clientes/buscar',
      body: { id_cliente: 42 },
      schema: Customer,
    });
    expect(customer.id_cliente).toBe(42);
    expect(customer.carteira.saldo).toBe(120);
  });
});

describe('contract errors on 2xx', () => {
  test('a 200 with a missing field', async () => {
    stubFetch(() => jsonResponse(200, ok({})));
    const e = await caught(getThing());
    expect(e.kind).toBe('contract');
    expect(e.status).toBe(200);
    expect(e.requestMayHaveReached).toBe(true);
    expect(e.cause).toEqual([expect.stringMatching(/^data\.n:/)]);
  });
  test('a 200 with success:false', async () => {
    stubFetch(() => jsonResponse(200, { success: false, message: 'Falhou', data: { x: 1 } }));
    const e = await caught(getThing());
    expect(e.kind).toBe('contract');
    expect(e.data).toEqual({ x: 1 });
  });
  test('a 200 with a body that is not JSON', async () => {
    stubFetch(() => jsonResponse(200, '<html>portal cativo</html>'));
    expect((await caught(getThing())).kind).toBe('contract');
  });
  test('a 200 with an empty body', async () => {
    stubFetch(() => new Response('', { status: 200 }));
    expect((await caught(getThing())).kind).toBe('contract');
  });
  test('a 200 without the envelope', async () => {
    stubFetch(() => jsonResponse(200, { n: 5 }));
    expect((await caught(getThing())).kind).toBe('contract');
  });
});

describe('HTTP errors', () => {
  test('a 422 keeps field errors keyed by request path', async () => {
    stubFetch(() =>
      jsonResponse(422, {
        success: false,
        message: 'Senha do atendente incorreta.',
        data: {},
        errors: { senha_atendente: ['Senha do atendente incorreta.'] },
      }),
    );
    const e = await caught(getThing());
    expect(e).toMatchObject({
      kind: 'validation',
      status: 422,
      message: 'Senha do atendente incorreta.',
    });
    expect(e.fieldErrors).toEqual({ senha_atendente: ['Senha do atendente incorreta.'] });
  });
  test('a 503 with an HTML page', async () => {
    stubFetch(() => new Response('<h1>Service Unavailable</h1>', { status: 503 }));
    const e = await caught(getThing());
    expect(e).toMatchObject({ kind: 'server', status: 503, requestMayHaveReached: true });
  });
  test('a 429', async () => {
    stubFetch(() => new Response('', { status: 429 }));
    expect((await caught(getThing())).kind).toBe('rate_limited');
  });
});

describe('network, timeout and abort', () => {
  test('fetch failing is a network error', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const e = await caught(getThing());
    expect(e).toMatchObject({ kind: 'network', status: null, requestMayHaveReached: true });
    expect(e.message).toBe(
      'Sem conexão com o serviço de fidelidade. Verifique a rede e tente novamente.',
    );
  });
  test('offline: the request cannot have reached the service', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    expect((await caught(getThing())).requestMayHaveReached).toBe(false);
    vi.restoreAllMocks();
  });
  test('a tiny timeout with a fetch that never answers', async () => {
    stubFetch(() => new Promise<Response>(() => {}));
    const e = await caught(getThing({ timeoutMs: 20 }));
    expect(e).toMatchObject({ kind: 'timeout', status: null, requestMayHaveReached: true });
  });
  test('the default timeout is 15 s (fake timers)', async () => {
    vi.useFakeTimers();
    const fetchMock = stubFetch(() => new Promise<Response>(() => {}));
    const pending = caught(getThing());
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0]![1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).kind).toBe('timeout');
    expect(fetchMock.mock.calls[0]![1]?.signal?.aborted).toBe(true);
  });
  test('a timeout is a timeout even when the caller passed its own signal', async () => {
    stubFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const e = await caught(getThing({ timeoutMs: 20, signal: controller.signal }));
    expect(e.kind).toBe('timeout');
    expect(controller.signal.aborted).toBe(false);
  });
  test('a body that stops arriving also times out', async () => {
    stubFetch(
      () => ({ status: 200, text: () => new Promise<string>(() => {}) }) as unknown as Response,
    );
    expect((await caught(getThing({ timeoutMs: 20 }))).kind).toBe('timeout');
  });
  test("the caller's abort propagates as an AbortError, not an ApiError", async () => {
    const fetchMock = stubFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = getThing({ signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(fetchMock.mock.calls[0]![1]?.signal?.aborted).toBe(true);
  });
  test('an already aborted signal sends nothing', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok({ n: 1 })));
    const controller = new AbortController();
    controller.abort();
    await expect(getThing({ signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('fetchConfig', () => {
  const GERENTE = {
    id: 3,
    name: 'Balcão',
    role: 'gerente',
    navigation: { caixa: true, premios: true, quiosque: true },
  };
  /** `/api/config` as our server answers it: a live store's gerente by default. */
  const serverConfig = (over: Record<string, unknown>) => ({
    establishmentId: 1,
    establishmentName: 'Loja Demo',
    mode: 'live',
    terminal: GERENTE,
    enrollment: 'code',
    ...over,
  });
  test("reads our server config, this browser's terminal and role included", async () => {
    const config = serverConfig({ mode: 'sandbox', enrollment: 'auto' });
    const fetchMock = stubFetch(() => jsonResponse(200, ok(config)));
    // A server from before hand-overs does not say: the counter hands rewards over.
    // A server from before hand-overs sends no entregaPremios: the counter reads it as on.
    expect(await fetchConfig()).toEqual(config);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/config');
  });
  test('entregaPremios false (the setting, or a service without hand-overs) is kept', async () => {
    const config = serverConfig({ entregaPremios: false });
    stubFetch(() => jsonResponse(200, ok(config)));
    expect((await fetchConfig()).entregaPremios).toBe(false);
  });
  test('a browser that is not enrolled has no terminal', async () => {
    const config = serverConfig({ establishmentName: null, terminal: null });
    stubFetch(() => jsonResponse(200, ok(config)));
    expect((await fetchConfig()).terminal).toBeNull();
  });
  test('fetching the config points every later request at its establishment', async () => {
    stubFetch(() =>
      jsonResponse(200, ok(serverConfig({ establishmentId: 42, establishmentName: null }))),
    );
    const client = new QueryClient();
    await client.fetchQuery(configQuery());
    expect(buildApiUrl('/clientes/buscar')).toBe('/api/v4/estabelecimentos/42/clientes/buscar');
  });
  /** The page carries a config, as the app server writes it. */
  function carryConfig(establishmentId: number, establishmentName: string | null) {
    const inline = document.createElement('script');
    inline.id = 'app-config';
    inline.type = 'application/json';
    inline.textContent = JSON.stringify({
      establishmentId,
      establishmentName,
      mode: 'sandbox',
      terminal: GERENTE,
      enrollment: 'auto',
    });
    document.head.append(inline);
  }
  test('the config the page carries is used without a request, once', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok({})));
    carryConfig(43, 'Loja \u003c1\u003e');
    const client = new QueryClient();
    const config = await client.fetchQuery(configQuery());
    expect(config).toMatchObject({ establishmentId: 43, establishmentName: 'Loja <1>' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(buildApiUrl('/clientes/buscar')).toBe('/api/v4/estabelecimentos/43/clientes/buscar');
    // Read once: a later read (after a 401) asks the server.
    expect(document.getElementById('app-config')).toBeNull();
  });
  test('the page config peeked at start-up is still taken by the config query, once', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok({})));
    carryConfig(45, null);
    expect(peekPageConfig()).toMatchObject({ establishmentId: 45, terminal: { role: 'gerente' } });
    expect(peekPageConfig()).toMatchObject({ establishmentId: 45 });
    const config = await new QueryClient().fetchQuery(configQuery());
    expect(config.establishmentId).toBe(45);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.getElementById('app-config')).toBeNull();
  });
  test('a page config that does not parse is ignored: the config is fetched', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(
        200,
        ok({
          establishmentId: 44,
          establishmentName: null,
          mode: 'live',
          terminal: null,
          enrollment: 'code',
        }),
      ),
    );
    const inline = document.createElement('script');
    inline.id = 'app-config';
    inline.type = 'application/json';
    inline.textContent = '{"establishmentId": -1';
    document.head.append(inline);
    const config = await new QueryClient().fetchQuery(configQuery());
    expect(config.establishmentId).toBe(44);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
  test.each([
    ['an unknown mode', { mode: 'test' }],
    ['an unknown role', { terminal: { ...GERENTE, role: 'dono' } }],
  ])('a config with %s is a contract error', async (_, change) => {
    stubFetch(() =>
      jsonResponse(
        200,
        ok({
          establishmentId: 1,
          establishmentName: null,
          mode: 'live',
          terminal: null,
          enrollment: 'code',
          ...change,
        }),
      ),
    );
    expect((await caught(fetchConfig())).kind).toBe('contract');
  });
});

test('a request before configureApi rejects (never throws synchronously) and sends nothing', async () => {
  vi.resetModules();
  const fresh = await import('./client');
  const fetchMock = stubFetch(() => jsonResponse(200, ok({ n: 1 })));
  const pending = fresh.apiRequest({ method: 'GET', path: '/coisa', schema: Thing });
  await expect(pending).rejects.toThrow(/configureApi/);
  expect(fetchMock).not.toHaveBeenCalled();
});
