// A refusal from the service is an answer, never an outage. Through the real processes: the
// sandbox run alone, the fault relay in front of it (counting every request it receives), and
// the app server (server/main.ts, live mode) pointed at the run.relay.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freshPhone, sandboxPurchases } from '../testing/processes';
import { startRelayedApp, type RelayedApp } from '../testing/relayed-app';

/** The body that once made the server stop answering: a phone the service cannot read. */
const BODY_OF_THE_REPORT = {
  cliente: { celular: '11111111111' },
  valor_gasto: 100,
  senha_atendente: '1234',
};
const WATCH_S = 30;

let run: RelayedApp;
let cookie: string;

beforeAll(async () => {
  run = await startRelayedApp('refusal', { CONTINGENCY_FAILURES: '3' });
  cookie = run.cookies.caixa;
}, 60_000);

afterAll(() => run?.stop());

async function post(body: unknown) {
  const res = await fetch(`${run.app.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: {
      cookie,
      origin: run.app.url,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as { message: string; errors?: Record<string, string[]> },
  };
}

/** What the sandbox itself answers to a lookup of that phone (its own message). */
async function serviceMessageFor(celular: string): Promise<string> {
  const res = await fetch(`${run.sandbox.url}/api/v4/estabelecimentos/1/clientes/buscar`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'app-token': 'demo-app-token',
      'access-token': 'demo-access-token-1',
    },
    body: JSON.stringify({ celular }),
  });
  expect(res.status).toBe(422);
  return ((await res.json()) as { message: string }).message;
}

test(`a posting the service would refuse is refused at once, and the server answers every second for ${WATCH_S} s`, async () => {
  const before = { ...run.relay.counts };

  // 1. The body of the report: the app server knows the service's rules, so nothing is kept
  //    and nothing reaches the service; the cashier reads the service's own message.
  const reported = await post(BODY_OF_THE_REPORT);
  expect(reported.status).toBe(422);
  expect(reported.json.errors?.['cliente.celular']).toEqual([
    await serviceMessageFor(BODY_OF_THE_REPORT.cliente.celular),
  ]);
  expect(reported.json.message).toBe(reported.json.errors?.['cliente.celular']?.[0]);

  // 2. A sale the app server cannot tell is wrong, whose customer the service refuses to read:
  //    the service's answer goes back as it is, nothing is kept, the circuit stays closed.
  const phone = freshPhone();
  const refusal = run.relay.add({
    match: (r) => r.path.endsWith('/clientes/buscar') && r.body.includes(phone),
    fault: {
      kind: 'refuse',
      status: 422,
      body: {
        success: false,
        message: 'Cliente bloqueado para pontuação.',
        data: {},
        errors: { celular: ['Cliente bloqueado para pontuação.'] },
      },
    },
    times: 1_000,
  });
  const refused = await post({ ...BODY_OF_THE_REPORT, cliente: { celular: phone } });
  expect(refused.status).toBe(422);
  expect(refused.json.message).toBe('Cliente bloqueado para pontuação.');
  expect(refusal.received).toBeGreaterThanOrEqual(1);

  // 3. For the next seconds the server answers at once, and nothing more is sent.
  const slowest: number[] = [];
  for (let i = 0; i < WATCH_S; i++) {
    const started = performance.now();
    const res = await fetch(`${run.app.url}/api/config`, {
      headers: { cookie },
      signal: AbortSignal.timeout(1_000),
    });
    expect(res.status).toBe(200);
    slowest.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const contingency = (await (
    await fetch(`${run.app.url}/api/contingencia`, { headers: { cookie } })
  ).json()) as { data: { aberto?: boolean; aguardando?: number; atencao?: number } };
  const received = run.relay.counts.received - before.received;
  console.log(
    `[refusal] report body: 422 "${reported.json.message}"; refused read: ${refused.status} ` +
      `"${refused.json.message}"; upstream requests in ${WATCH_S} s: ${received} ` +
      `(refused reads ${refusal.received}); /api/config slowest ${Math.round(Math.max(...slowest))} ms; ` +
      `contingency ${JSON.stringify(contingency.data)}`,
  );
  expect(received).toBe(refusal.received);
  expect(refusal.received).toBe(1);
  expect(Math.max(...slowest)).toBeLessThan(1_000);
  expect(await sandboxPurchases(run.sandbox.url, phone)).toBe(0);
  expect(contingency.data).toMatchObject({ contingencia: false, aguardando: 0, atencao: 0 });
}, 90_000);
