// A counter whose kiosk faces the customer: set with `npm run terminal -- set ID
// --pdv-direto-quiosque KIOSK`, every PDV sale waiting for its customer is staged on that kiosk
// by itself. Through the real processes: the sandbox, the relay and the app server (live mode,
// PDV_SENHA_ATENDENTE set). Maria (+5511987654321, CPF 529.982.247-25) is in the seed.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { sandboxPurchases } from '../testing/processes';
import type { RelayedApp } from '../testing/relayed-app';
import { terminalCli } from '../testing/spawn';
import { addPdv, asPdv, asTerminal, relayedAppPerFile } from './testing/clients';

const MARIA_PHONE = '+5511987654321';
const MARIA_CPF = '52998224725';
const ENV = { PDV_SENHA_ATENDENTE: '1234', CONTINGENCY_FAILURES: '100' };

let run: RelayedApp;
let token = '';
let counterId = 0;
let kioskId = 0;

relayedAppPerFile('pdv-display', ENV, async (started) => {
  run = started;
  const added = await addPdv(run);
  ({ token, counterId } = added);
  kioskId = added.terminals.find((t) => t.role === 'quiosque')!.id;
});

interface Venda {
  id: string;
  estado: string;
  pontos: number | null;
  mensagem: string | null;
  cliente: { primeiro_nome: string | null } | null;
}

async function pdv(method: string, path: string, body?: unknown) {
  const res = await asPdv(run.app.url, token, method, path, body);
  const json = (await res.json()) as { data?: { venda?: Venda } };
  return { status: res.status, venda: json.data!.venda! };
}

/** The kiosk's own requests (its cookie, a same-origin Origin). */
async function kiosk(method: string, path: string, body?: unknown) {
  const res = await asTerminal(run, 'quiosque', method, `/api/quiosque${path}`, body);
  return { status: res.status, json: (await res.json()) as { data: { venda: KioskVenda | null } } };
}

interface KioskVenda {
  id: string;
  estado: string;
  valor_gasto: number;
  itens: { descricao?: string; valor: number }[];
}

const cli = (...args: string[]) => terminalCli(args, { APP_DB: run.appDb });

test('the manager sets the display with the terminal command; the list shows it', async () => {
  const out = await cli('set', String(counterId), '--pdv-direto-quiosque', String(kioskId));
  expect(out).toContain(`vai direto ao quiosque ${kioskId}`);
  expect(await cli('list')).toContain(`(vendas do PDV direto ao quiosque ${kioskId})`);
  // Only a kiosk can be a display, only a counter has one.
  await expect(
    cli('set', String(counterId), '--pdv-direto-quiosque', String(counterId)),
  ).rejects.toThrow(/não é um quiosque ativo/);
  await expect(
    cli('set', String(kioskId), '--pdv-direto-quiosque', String(kioskId)),
  ).rejects.toThrow(/não é um caixa ativo/);
}, 30_000);

test('a PDV sale goes to the kiosk with no counter action; claimed with the phone, posted once', async () => {
  const before = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  const itens = [
    { descricao: 'Café', qtde: 2, valor: 900 },
    { descricao: 'Pão de queijo', valor: 2350 },
  ];
  const sale = { id_venda: `tela-${randomUUID()}`, valor_gasto: 3250, itens };
  const sent = await pdv('POST', '/api/integracao/vendas', sale);
  expect(sent.status).toBe(201);
  expect(sent.venda.estado).toBe('no quiosque');
  // The kiosk shows the PDV's amount and basket; nobody at the counter pressed anything.
  const shown = await kiosk('GET', '/venda');
  const staged = shown.json.data.venda!;
  expect(staged).toMatchObject({ estado: 'aguardando', valor_gasto: 3250, itens });
  const claim = () => kiosk('POST', `/venda/${staged.id}/resgatar`, { celular: MARIA_PHONE });
  const [first, second] = await Promise.all([claim(), claim()]);
  const statuses = [first.status, second.status].sort();
  console.log(`two claims at once: ${statuses.join(', ')}`);
  expect(statuses).toEqual([200, 409]);
  const read = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}?aguardar=10`);
  expect(read.venda.estado).toBe('lançada');
  expect(read.venda.pontos).toBe(32);
  expect(read.venda.cliente?.primeiro_nome).toBe('Maria');
  expect(await sandboxPurchases(run.sandbox.url, MARIA_PHONE)).toBe(before + 1);
}, 30_000);

test('a known CPF is still posted at once; a newer sale takes the kiosk from an unclaimed one', async () => {
  const known = await pdv('POST', '/api/integracao/vendas', {
    id_venda: `cpf-${randomUUID()}`,
    valor_gasto: 1000,
    cpf: MARIA_CPF,
  });
  expect(known.venda.estado).toBe('lançada');
  const a = await pdv('POST', '/api/integracao/vendas', {
    id_venda: `a-${randomUUID()}`,
    valor_gasto: 700,
  });
  expect(a.venda.estado).toBe('no quiosque');
  const b = await pdv('POST', '/api/integracao/vendas', {
    id_venda: `b-${randomUUID()}`,
    valor_gasto: 800,
  });
  expect(b.venda.estado).toBe('no quiosque');
  expect((await kiosk('GET', '/venda')).json.data.venda?.valor_gasto).toBe(800);
  // The customer of the first sale left without typing: it waits at the counter again.
  const list = await fetch(`${run.app.url}/api/integracao/balcao/vendas`, {
    headers: { cookie: run.cookies.caixa },
  });
  const waiting = (await list.json()).data.aguardando as Venda[];
  expect(waiting.find((v) => v.id === a.venda.id)?.estado).toBe('aguardando');
  expect(waiting.find((v) => v.id === b.venda.id)?.estado).toBe('no quiosque');
}, 30_000);

test('with the display cleared, a PDV sale waits at the counter', async () => {
  expect(await cli('set', String(counterId), '--pdv-direto-quiosque', 'nenhum')).toContain(
    'aguardam no caixa',
  );
  const sent = await pdv('POST', '/api/integracao/vendas', {
    id_venda: `off-${randomUUID()}`,
    valor_gasto: 500,
  });
  expect(sent.venda.estado).toBe('aguardando');
}, 30_000);
