import { describe, expect, test } from 'vitest';
import { ACCESS_TOKEN, APP_TOKEN, makeApp, recordingUpstream } from '../../testing/app-harness';
import { GERENTE_NAVIGATION } from '../testing/requests';

const BUSCAR = '/api/v4/estabelecimentos/1/clientes/buscar';

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** `res` refuses with `status` and `message` (no data), and nothing reached the upstream. */
async function expectRefused(res: Response, received: unknown[], status: number, message: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ success: false, message, data: {} });
  expect(received).toHaveLength(0);
}

describe('GET /api/config', () => {
  test('answers the establishment and the mode in the envelope', async () => {
    const { app } = makeApp({ mode: 'sandbox', establishmentId: 7, establishmentName: 'Café' });
    const res = await app.request('/api/config');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      message: 'Configuração do terminal.',
      data: {
        establishmentId: 7,
        establishmentName: 'Café',
        mode: 'sandbox',
        terminal: {
          id: 1,
          name: 'Teste',
          role: 'gerente',
          navigation: GERENTE_NAVIGATION,
        },
        enrollment: 'code',
        entregaPremios: false,
      },
    });
  });

  test('reports live mode and a null name', async () => {
    const { app } = makeApp({ mode: 'live', establishmentName: null });
    const body = await (await app.request('/api/config')).json();
    expect(body.data).toMatchObject({ establishmentId: 1, establishmentName: null, mode: 'live' });
  });

  test('other methods are a 405 envelope', async () => {
    const { app } = makeApp();
    const res = await app.request('/api/config', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({
      success: false,
      message: 'Método não permitido.',
      data: {},
    });
  });
});

describe('one canonical query: what the role check reads is what the service gets', () => {
  const REWARDS = '/api/v4/estabelecimentos/1/recompensas';
  const refusal = async (res: Response) => ({ status: res.status, ...(await res.json()) });

  test.each([
    ['id_cliente=1&id_cliente=', 'id_cliente'],
    ['id_cliente=1&id_cliente=2', 'id_cliente'],
    ['id_cliente=1&id%5Fcliente=', 'id_cliente'],
    ['status=resgatado&id_cliente=1&status=expirado', 'status'],
  ])('a parameter sent twice is a 400 in Portuguese, never forwarded: ?%s', async (query, name) => {
    const { app, received } = makeApp({}, 'caixa');
    const res = await app.request(`${REWARDS}?${query}`);
    expect(await refusal(res)).toEqual({
      status: 400,
      success: false,
      message: `O parâmetro ${name} foi enviado mais de uma vez. Envie cada parâmetro uma só vez.`,
      data: {},
    });
    expect(received).toHaveLength(0);
  });

  test.each([['id.cliente='], ['id_cliente[]='], ['id+cliente='], ['token=x']])(
    'a caixa with one customer’s id cannot add a name the service would read as another: ?id_cliente=1&%s',
    async (extra) => {
      const { app, received } = makeApp({}, 'caixa');
      const res = await app.request(`${REWARDS}?id_cliente=1&${extra}`);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/^Parâmetro não aceito nesta operação: /);
      expect(received).toHaveLength(0);
    },
  );

  test('the query forwarded is rebuilt from the parameters checked, each once', async () => {
    const { app, received } = makeApp({}, 'caixa');
    const res = await app.request(`${REWARDS}?id_cliente=3&q=caf%C3%A9%20gelado&status=resgatado`);
    expect(res.status).toBe(200);
    expect(received[0]!.url).toBe(
      'https://api.example.com/api/v4/estabelecimentos/1/recompensas?id_cliente=3&q=caf%C3%A9+gelado&status=resgatado',
    );
    expect(new URL(received[0]!.url).searchParams.getAll('id_cliente')).toEqual(['3']);
  });

  test.each([
    ['fidelidade/pontuar', 'valor_gasto=1&valor_gasto=100000'],
    ['clientes/buscar', 'id_cliente=1&id_cliente=2'],
    ['clientes/cadastrar', 'celular=%2B5511900000001'],
  ])(
    '%s takes no query (the service would merge it into the JSON): 400, never forwarded',
    async (path, query) => {
      const { app, received } = makeApp({}, 'caixa');
      const res = await app.request(
        `/api/v4/estabelecimentos/1/${path}?${query}`,
        post({ celular: '+5511987654321' }),
      );
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/^Parâmetro não aceito nesta operação: \w+\.$/);
      expect(received).toHaveLength(0);
    },
  );
});

describe('proxy to the loyalty service', () => {
  test('forwards method, path, content-type and body to the base URL', async () => {
    const { app, received } = makeApp({ upstreamBaseUrl: 'https://api.example.com/base/' });
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    const r = received[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('https://api.example.com/base/api/v4/estabelecimentos/1/clientes/buscar');
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toBe('{"celular":"+5511987654321"}');
  });

  test('a GET is forwarded without a body and keeps its query', async () => {
    const { app, received } = makeApp();
    await app.request('/api/v4/estabelecimentos/1/recompensas?page=2&status=resgatado');
    expect(received[0]!.method).toBe('GET');
    expect(received[0]!.url).toBe(
      'https://api.example.com/api/v4/estabelecimentos/1/recompensas?page=2&status=resgatado',
    );
    expect(received[0]!.body).toBe('');
  });

  test('replaces browser-sent tokens with the configured ones and drops credentials and hop-by-hop headers', async () => {
    const { app, received } = makeApp();
    await app.request(
      BUSCAR,
      post(
        { id_cliente: 1 },
        {
          'app-token': 'browser-app-token',
          'access-token': 'browser-access-token',
          authorization: 'Bearer browser',
          cookie: 'session=abc',
          connection: 'keep-alive, x-custom-hop',
          'keep-alive': 'timeout=5',
          'proxy-authorization': 'Basic Zm9v',
          te: 'trailers',
          upgrade: 'websocket',
          'x-forwarded-for': '10.0.0.1',
          origin: 'http://localhost',
          accept: 'text/html',
          'accept-language': 'pt-BR',
        },
      ),
    );
    const h = received[0]!.headers;
    expect(h.get('app-token')).toBe(APP_TOKEN);
    expect(h.get('access-token')).toBe(ACCESS_TOKEN);
    expect(h.get('accept')).toBe('application/json');
    expect(h.get('accept-language')).toBe('pt-BR');
    for (const name of [
      'authorization',
      'cookie',
      'host',
      'connection',
      'keep-alive',
      'proxy-authorization',
      'te',
      'upgrade',
      'x-forwarded-for',
      'origin',
    ]) {
      expect(h.get(name), name).toBeNull();
    }
    expect([...h.keys()].sort()).toEqual(
      ['accept', 'accept-language', 'access-token', 'app-token', 'content-type'].sort(),
    );
  });

  test('the tokens are added even when the browser sends none', async () => {
    const { app, received } = makeApp();
    await app.request('/api/v4/estabelecimentos/1/recompensas');
    expect(received[0]!.headers.get('app-token')).toBe(APP_TOKEN);
    expect(received[0]!.headers.get('access-token')).toBe(ACCESS_TOKEN);
  });

  test.each([
    '/api/v4/estabelecimentos/2/clientes/buscar',
    '/api/v4/estabelecimentos/abc/clientes/buscar',
    '/api/v4/estabelecimentos/01/clientes/buscar',
    '/api/v4/estabelecimentos/1.0/clientes/buscar',
    '/api/v4/estabelecimentos/-1/clientes/buscar',
    '/api/v4/estabelecimentos/%31/clientes/buscar',
    '/api/v4/estabelecimentos//clientes/buscar',
    '/api/v4/estabelecimentos/',
    '/api/v4/estabelecimentos/1/../2/clientes/buscar',
  ])('%s is refused with 403 and never reaches the upstream', async (path) => {
    const { app, received } = makeApp();
    const res = await app.request(path, post({ celular: '+5511987654321' }));
    await expectRefused(
      res,
      received,
      403,
      'Este terminal só pode acessar o próprio estabelecimento.',
    );
  });

  test('an encoded separator after the establishment is a 400 and never reaches the upstream', async () => {
    const { app, received } = makeApp();
    const res = await app.request('/api/v4/estabelecimentos/1/..%2F2/clientes/buscar');
    await expectRefused(res, received, 400, 'Caminho inválido.');
  });

  test('an upstream that cannot be reached is a 502 envelope', async () => {
    const { app } = makeApp({
      upstream: {
        fetch: () => {
          throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        },
      },
    });
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      success: false,
      message: 'Serviço de fidelidade indisponível. Tente novamente em instantes.',
      data: {},
    });
  });

  test('a real connection refused through global fetch is a 502', async () => {
    const { app } = makeApp({
      upstream: { fetch: (req) => fetch(req) },
      upstreamBaseUrl: 'http://127.0.0.1:1',
    });
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(502);
    expect((await res.json()).success).toBe(false);
  });

  test('an upstream slower than the timeout is a 504 envelope, and its request is aborted', async () => {
    let aborted = false;
    const { app } = makeApp({
      upstreamTimeoutMs: 50,
      upstream: {
        fetch: (req) =>
          new Promise<Response>((resolve) => {
            req.signal.addEventListener('abort', () => (aborted = true));
            setTimeout(() => resolve(Response.json({ success: true })), 2_000).unref();
          }),
      },
    });
    const started = Date.now();
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await res.json()).toEqual({
      success: false,
      message: 'O serviço de fidelidade demorou demais para responder. Tente novamente.',
      data: {},
    });
    expect(aborted).toBe(true);
  });

  test('an upstream that sends headers but stalls its body is also a 504', async () => {
    const { app } = makeApp({
      upstreamTimeoutMs: 50,
      upstream: {
        fetch: () =>
          new Response(new ReadableStream({ start: (ctl) => ctl.enqueue(new Uint8Array([123])) }), {
            status: 200,
          }),
      },
    });
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(504);
  });

  test('a body declared larger than the limit is a 413 without calling the upstream', async () => {
    const { app, received } = makeApp({ maxBodyBytes: 100 });
    const res = await app.request(BUSCAR, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '101' },
      body: '{}',
    });
    await expectRefused(res, received, 413, 'Requisição grande demais.');
  });

  test('a streamed body that grows past the limit is a 413 without calling the upstream', async () => {
    const { app, received } = makeApp({ maxBodyBytes: 100 });
    const chunk = new TextEncoder().encode('x'.repeat(60));
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        ctl.enqueue(chunk);
        ctl.enqueue(chunk);
        ctl.close();
      },
    });
    const res = await app.request(BUSCAR, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(received).toHaveLength(0);
  });

  test('a body of exactly the limit is forwarded whole', async () => {
    const { app, received } = makeApp({ maxBodyBytes: 100 });
    const text = JSON.stringify({ nome: 'x'.repeat(89) });
    expect(text.length).toBe(100);
    const res = await app.request(BUSCAR, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(200);
    expect(received[0]!.body).toBe(text);
  });

  test('x-sandbox-now is dropped in live mode', async () => {
    const { app, received } = makeApp({ mode: 'live' });
    await app.request(
      BUSCAR,
      post({ id_cliente: 1 }, { 'x-sandbox-now': '2026-11-23T09:00:00-03:00' }),
    );
    expect(received[0]!.headers.get('x-sandbox-now')).toBeNull();
  });

  test('x-sandbox-now is forwarded in sandbox mode', async () => {
    const { app, received } = makeApp({ mode: 'sandbox' });
    await app.request(
      BUSCAR,
      post({ id_cliente: 1 }, { 'x-sandbox-now': '2026-11-23T09:00:00-03:00' }),
    );
    expect(received[0]!.headers.get('x-sandbox-now')).toBe('2026-11-23T09:00:00-03:00');
  });

  test('the embedded sandbox gets the body as sent, the tokens set, and its answer streams back', async () => {
    const body = JSON.stringify({ celular: '+5511987654321' });
    let seen: { text: string; app: string | null; cookie: string | null } | null = null;
    let finish = (): void => undefined;
    const { app } = makeApp({
      mode: 'sandbox',
      upstream: {
        async fetch(req) {
          seen = {
            text: await req.text(),
            app: req.headers.get('app-token'),
            cookie: req.headers.get('cookie'),
          };
          // An answer whose end the upstream holds back: the first chunk must arrive anyway.
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"success":true,'));
              finish = () => {
                controller.enqueue(new TextEncoder().encode('"data":{}}'));
                controller.close();
              };
            },
          });
          return new Response(stream, { headers: { 'content-type': 'application/json' } });
        },
      },
    });
    const res = await app.request(BUSCAR, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'app-token': 'browser-made-up',
      },
      body,
    });
    expect(seen).toEqual({ text: body, app: APP_TOKEN, cookie: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"success":true,');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('"data":{}}');
  });

  test('live mode calls the upstream base URL with the same path and query', async () => {
    const { app, received } = makeApp({ mode: 'live' });
    await app.request(
      'http://127.0.0.1:4173/api/v4/estabelecimentos/1/recompensas?page=2&status=resgatado',
    );
    expect(received[0]!.url).toBe(
      'https://api.example.com/api/v4/estabelecimentos/1/recompensas?page=2&status=resgatado',
    );
  });

  test('the embedded sandbox is given the browser-facing origin, so its page URLs lead back here', async () => {
    const { app, received } = makeApp({
      mode: 'sandbox',
      upstreamBaseUrl: 'http://sandbox.internal',
    });
    await app.request('http://127.0.0.1:4173/api/v4/estabelecimentos/1/recompensas?page=2');
    expect(received[0]!.url).toBe(
      'http://127.0.0.1:4173/api/v4/estabelecimentos/1/recompensas?page=2',
    );
  });

  test.each([
    [
      201,
      '{"success":true,"message":"Cliente cadastrado.","data":{"id_cliente":42}}',
      'application/json',
    ],
    [
      404,
      '{"success":false,"message":"Cliente não encontrado","data":{}}',
      'application/json; charset=utf-8',
    ],
    [
      409,
      '{"success":false,"message":"Cliente já existe","data":{"id_cliente":3}}',
      'application/json',
    ],
    [
      422,
      '{"success":false,"message":"Celular inválido","errors":{"cliente.celular":["Celular inválido"]}}',
      'application/json',
    ],
    [500, '<html>Whoops</html>', 'text/html; charset=UTF-8'],
  ])('upstream status %i and its body pass through unchanged', async (status, text, type) => {
    const rec = recordingUpstream(
      () =>
        new Response(text, {
          status,
          headers: {
            'content-type': type,
            'set-cookie': 'laravel_session=abc; HttpOnly',
            'x-powered-by': 'PHP/8.3',
            connection: 'close',
            'keep-alive': 'timeout=5',
            location: 'https://api.example.com/elsewhere',
            'retry-after': '30',
          },
        }),
    );
    const { app } = makeApp({ upstream: rec.upstream });
    const res = await app.request(BUSCAR, post({ celular: '+5511987654321' }));
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(text);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('cache-control')).toBe('no-store');
    for (const name of ['set-cookie', 'x-powered-by', 'connection', 'keep-alive', 'location']) {
      expect(res.headers.get(name), name).toBeNull();
    }
  });

  test('a gzip-encoded upstream answer reaches the browser decoded, without content-encoding', async () => {
    // global fetch decodes the body but keeps the header: relaying it would corrupt the body.
    const rec = recordingUpstream(
      () =>
        new Response('{"success":true}', {
          headers: {
            'content-type': 'application/json',
            'content-encoding': 'gzip',
            'content-length': '99',
          },
        }),
    );
    const { app } = makeApp({ upstream: rec.upstream });
    const res = await app.request(BUSCAR, post({}));
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).not.toBe('99');
    expect(await res.text()).toBe('{"success":true}');
  });

  test('a 204 from the upstream is relayed without a body', async () => {
    const rec = recordingUpstream(() => new Response(null, { status: 204 }));
    const { app } = makeApp({ upstream: rec.upstream });
    const res = await app.request(BUSCAR, post({}));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  test('an upstream answer larger than the response limit is a 502', async () => {
    const rec = recordingUpstream(() => new Response('x'.repeat(2_000)));
    const { app } = makeApp({ upstream: rec.upstream, maxResponseBytes: 1_000 });
    const res = await app.request(BUSCAR, post({}));
    expect(res.status).toBe(502);
    expect((await res.json()).message).toBe(
      'Resposta inválida do serviço de fidelidade. Tente novamente.',
    );
  });

  test.each([
    '/api',
    '/api/',
    '/api/v3/estabelecimentos/1/clientes',
    '/api/v4/estabelecimentos',
    '/api/anything',
  ])('%s is a 404 envelope', async (path) => {
    const { app, received } = makeApp();
    const res = await app.request(path);
    await expectRefused(res, received, 404, 'Rota não encontrada.');
  });
});
