// The dashboard's identification rate of the PDV's sales (issues 28 and 31), from real sales
// through the real processes (sandbox, relay, app server): some posted from the PDV's own CPF,
// some by the counter, some expired, one cancelled, one still open, on two counters.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import type { RelayedApp } from '../testing/relayed-app';
import { addPdv, asPdv, asTerminal, relayedAppPerFile } from './testing/clients';

const MARIA_PHONE = '+5511987654321';
const MARIA_CPF = '52998224725';
const UNKNOWN_CPF = '11144477735';
const ENV = { PDV_SENHA_ATENDENTE: '1234', PDV_VENDA_EXPIRA_MIN: '0.05' };

let run: RelayedApp;
const tokens = { caixa: '', gerente: '' };

relayedAppPerFile('painel-pdv', ENV, async (started) => {
  run = started;
  for (const role of ['caixa', 'gerente'] as const) {
    tokens[role] = (await addPdv(run, role, `PDV ${role}`)).token;
  }
});

interface Venda {
  id: string;
  id_venda: string;
  estado: string;
}

async function pdv(counter: keyof typeof tokens, method: string, path: string, body?: unknown) {
  const res = await asPdv(run.app.url, tokens[counter], method, path, body);
  return ((await res.json()) as { data: { venda: Venda } }).data.venda;
}

const sell = (counter: keyof typeof tokens, extra: Record<string, unknown> = {}) =>
  pdv(counter, 'POST', '/api/integracao/vendas', {
    id_venda: `v-${randomUUID()}`,
    valor_gasto: 1500,
    ...extra,
  });

async function postAtCounter(venda: Venda): Promise<void> {
  const res = await asTerminal(
    run,
    'caixa',
    'POST',
    `/api/integracao/balcao/vendas/${venda.id}/lancar`,
    { cliente: { celular: MARIA_PHONE }, senha_atendente: '1234' },
    { 'idempotency-key': randomUUID() },
  );
  expect(res.status).toBe(200);
}

/** `YYYY-MM-DD` in Brasília, `days` from today. */
const localDay = (days: number) =>
  new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

test('the dashboard counts the PDV sales identified, per counter and per day', async () => {
  // Posted at once from the PDV's CPF: two at the cashier's counter, one at the manager's.
  for (const counter of ['caixa', 'caixa', 'gerente'] as const) {
    expect((await sell(counter, { cpf: MARIA_CPF })).estado).toBe('lançada');
  }
  // Not registered: the counter finds the customer and posts them.
  for (let i = 0; i < 2; i++) {
    const v = await sell('caixa', { cpf: UNKNOWN_CPF });
    expect(v.estado).toBe('aguardando');
    await postAtCounter(v);
  }
  // Nobody identifies these two: they expire.
  const lost = [await sell('caixa'), await sell('caixa')];
  const cancelled = await sell('caixa', { valor_gasto: 990 });
  await pdv('caixa', 'POST', `/api/integracao/vendas/${cancelled.id_venda}/cancelar`);
  for (const v of lost) {
    const read = await pdv('caixa', 'GET', `/api/integracao/vendas/${v.id_venda}?aguardar=15`);
    expect(read.estado).toBe('não identificada');
  }
  // Still open when the manager looks.
  expect((await sell('caixa')).estado).toBe('aguardando');

  const res = await fetch(
    `${run.app.url}/api/painel?de=${localDay(-1)}&ate=${localDay(0)}&fuso=-180`,
    { headers: { cookie: run.cookies.gerente } },
  );
  expect(res.status).toBe(200);
  const pdvFigures = (await res.json()).data.pdv;
  console.log('painel pdv', JSON.stringify({ ...pdvFigures, dias: undefined }));
  expect(pdvFigures).toMatchObject({
    total: 8,
    identificadas: 5,
    nao_identificadas: 2,
    em_aberto: 1,
    canceladas: 1,
  });
  expect(pdvFigures.terminais).toEqual([
    {
      id: expect.any(String),
      nome: 'Teste caixa',
      total: 7,
      identificadas: 4,
      nao_identificadas: 2,
      em_aberto: 1,
      canceladas: 1,
    },
    {
      id: expect.any(String),
      nome: 'Teste gerente',
      total: 1,
      identificadas: 1,
      nao_identificadas: 0,
      em_aberto: 0,
      canceladas: 0,
    },
  ]);
  const perDay = (pdvFigures.dias as { total: number; identificadas: number }[]).reduce(
    (a, d) => ({ total: a.total + d.total, identificadas: a.identificadas + d.identificadas }),
    { total: 0, identificadas: 0 },
  );
  expect(perDay).toEqual({ total: 8, identificadas: 5 });
  // The same figures as the store's own rows, counted by the test.
  const db = new Database(run.appDb, { readonly: true });
  const byState = Object.fromEntries(
    (
      db.prepare('select state, count(*) as n from pdv_sales group by state').all() as {
        state: string;
        n: number;
      }[]
    ).map((r) => [r.state, r.n]),
  );
  db.close();
  expect(byState).toEqual({ lançada: 5, 'não identificada': 2, cancelada: 1, aguardando: 1 });
}, 60_000);
