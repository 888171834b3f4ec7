// Vigilância's outbound webhook through the real processes (the sandbox, the relay, the app
// server of server/main.ts started with ALERT_WEBHOOK_URL and ALERT_WEBHOOK_SECRET) and a real
// receiver on 127.0.0.1: an alert raised by a posting reaches it signed, a manager's decision
// too, and the manager reads the deliveries; a cashier cannot.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DeliveryList } from '#contract/api/vigilancia-webhook';
import { freshPhone } from '../testing/processes';
import { startRelayedApp, type RelayedApp } from '../testing/relayed-app';
import { webhookReceiver } from '../testing/webhook-receiver';
import { asTerminal } from './testing/clients';

const SECRET = 'segredo-do-webhook-de-teste-0001';
let run: RelayedApp;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  receiver = await webhookReceiver(SECRET, [200]);
  run = await startRelayedApp('vigilancia-webhook', {
    ALERT_WEBHOOK_URL: receiver.url,
    ALERT_WEBHOOK_SECRET: SECRET,
  });
}, 60_000);

afterAll(async () => {
  await run?.stop();
  await receiver?.close();
});

async function as(role: 'caixa' | 'gerente', method: string, path: string, body?: unknown) {
  const res = await asTerminal(run, role, method, path, body, { 'idempotency-key': randomUUID() });
  return { status: res.status, body: (await res.json()) as { data: unknown } };
}

async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('an alert and its acknowledgement reach the receiver signed, and the manager sees both delivered', async () => {
  const rules = await as('gerente', 'PUT', '/api/vigilancia/regras', {
    regras: [{ codigo: 'valor_alto', ligada: true, parametros: { teto_centavos: 5_000 } }],
  });
  expect(rules.status).toBe(200);
  const posted = await as('caixa', 'POST', '/api/v4/estabelecimentos/1/fidelidade/pontuar', {
    cliente: { celular: freshPhone() },
    valor_gasto: 9_900,
    senha_atendente: '1234',
  });
  expect(posted.status).toBe(200);
  const created = await until(
    () => receiver.got,
    (g) => g.some((x) => x.event === 'alerta.criado' && x.body.alerta.regra === 'valor_alto'),
  );
  // Other rules may fire too (the hour of the run may be outside the store's hours).
  const first = created.find(
    (x) => x.event === 'alerta.criado' && x.body.alerta.regra === 'valor_alto',
  )!;
  expect(first.verified).toBe(true);
  expect(first.body).toMatchObject({ evento: 'alerta.criado', loja: 1 });
  expect(first.body.alerta).toMatchObject({ regra: 'valor_alto', valor: 9_900, estado: 'aberto' });
  expect(first.body.alerta.cliente).toMatch(/^\(\d\d\) 9••••-\d{4}$/);

  const decided = await as(
    'gerente',
    'POST',
    `/api/vigilancia/alertas/${first.body.alerta.id}/decisao`,
    {
      acao: 'reconhecer',
      nota: 'Venda grande conferida',
    },
  );
  expect(decided.status).toBe(200);
  const acked = await until(
    () => receiver.got,
    (g) => g.some((x) => x.event === 'alerta.reconhecido'),
  );
  const ack = acked.find((x) => x.event === 'alerta.reconhecido')!;
  expect(ack.verified).toBe(true);
  expect(ack.body.alerta).toMatchObject({ estado: 'reconhecido', nota: 'Venda grande conferida' });

  const list = await until(
    async () => (await as('gerente', 'GET', '/api/vigilancia/entregas')).body.data as DeliveryList,
    (d) => d.itens.length >= 2 && d.itens.every((x) => x.estado === 'entregue'),
  );
  const ours = list.itens.filter((d) => d.alerta === first.body.alerta.id);
  console.log(
    `deliveries: ${list.itens.map((d) => `${d.evento} ${d.estado} ${d.tentativas}× ${d.ultimo_status}`).join('; ')}`,
  );
  expect(list.ativo).toBe(true);
  expect(ours.map((d) => d.evento).sort()).toEqual(['alerta.criado', 'alerta.reconhecido']);
  expect(ours.every((d) => d.tentativas === 1 && d.ultimo_status === 200)).toBe(true);
});

test('a cashier cannot read the deliveries', async () => {
  expect((await as('caixa', 'GET', '/api/vigilancia/entregas')).status).toBe(403);
});
