import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { openSandbox } from '../../sandbox/sandbox';
import { createAppServer } from '../app';
import { embeddedSandbox } from '../embedded';
import { capturedLogger } from '../test-helpers';
import { createPostingService } from './postings';
import { sqliteJournal } from './test-support';
import { upstreamCall } from './upstream';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup() {
  const sandbox = openSandbox({ dbPath: ':memory:' });
  const upstream = embeddedSandbox(sandbox, 1)!;
  const journal = await sqliteJournal();
  const service = createPostingService({
    store: journal.store,
    call: upstreamCall(upstream),
    establishmentId: 1,
  });
  const app = createAppServer({
    ...upstream,
    distDir: '/nonexistent',
    logger: capturedLogger().logger,
    postings: service,
  });
  closers.push(
    () => sandbox.close(),
    journal.close,
    () => service.stop(),
  );
  const pontuar = (body: unknown, key: string | null = randomUUID(), id = 1) =>
    app.request(`/api/v4/estabelecimentos/${id}/fidelidade/pontuar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
  const compras = async (celular: string) => {
    const res = await app.request('/api/v4/estabelecimentos/1/clientes/buscar', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ celular }),
    });
    return res.status === 404
      ? 0
      : ((await res.json()) as { data: { compras: number } }).data.compras;
  };
  return { app, pontuar, compras };
}

const sale = (celular: string, valor = 2590) => ({
  valor_gasto: valor,
  senha_atendente: '1234',
  cliente: { celular },
});

describe('pontuar through the journal', () => {
  test('without Idempotency-Key: 422 in Portuguese, nothing posted', async () => {
    const { pontuar, compras } = await setup();
    const res = await pontuar(sale('+5511955550001'), null);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/identificador/);
    expect(await compras('+5511955550001')).toBe(0);
  });

  test('with a key: the service answer; the same key again: the same answer, one posting', async () => {
    const { pontuar, compras } = await setup();
    const key = randomUUID();
    const first = await pontuar(sale('+5511955550002'), key);
    expect(first.status).toBe(200);
    const a = (await first.json()) as { data: { id_ponto: number; saldo_atual: number } };
    expect(a.data.saldo_atual).toBe(25);
    const again = await pontuar(sale('+5511955550002'), key);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(a);
    expect(await compras('+5511955550002')).toBe(1);
  });

  test('the same key with another amount: 422, nothing more posted', async () => {
    const { pontuar, compras } = await setup();
    const key = randomUUID();
    await pontuar(sale('+5511955550003', 1000), key);
    const res = await pontuar(sale('+5511955550003', 5000), key);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/outra venda/);
    expect(await compras('+5511955550003')).toBe(1);
  });

  test("the service's refusal is relayed as it came (a wrong password: 422 on senha_atendente)", async () => {
    const { pontuar, compras } = await setup();
    const res = await pontuar({ ...sale('+5511955550004'), senha_atendente: '0000' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'senha_atendente',
    );
    expect(await compras('+5511955550004')).toBe(0);
  });

  test('GET /api/lancamentos/{key} tells what became of the sale; an unknown key is a 404', async () => {
    const { app, pontuar } = await setup();
    const key = randomUUID();
    await pontuar(sale('+5511955550005'), key);
    const res = await app.request(`/api/lancamentos/${key}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({
      chave: key,
      estado: 'lançado',
      valor_gasto: 2590,
      celular: '+5511955550005',
      pontos: 25,
      conferido: false,
      resposta: { status: 200 },
    });
    expect((await app.request(`/api/lancamentos/${randomUUID()}`)).status).toBe(404);
  });

  test('another establishment in the path: 403, nothing journaled', async () => {
    const { pontuar } = await setup();
    expect((await pontuar(sale('+5511955550006'), randomUUID(), 2)).status).toBe(403);
  });

  test('a body that is not JSON: 400', async () => {
    const { app } = await setup();
    const res = await app.request('/api/v4/estabelecimentos/1/fidelidade/pontuar', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: '{nope',
    });
    expect(res.status).toBe(400);
  });
});
