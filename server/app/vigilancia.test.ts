// Vigilância through the real processes (the sandbox, the relay, the app server of
// server/main.ts): a posting typed at a counter whose PDV sends every sale is flagged as it
// settles; the PDV's cancel of a posted sale answers 409 and is recorded once however often it
// is re-sent; a manager reads, decides (audited) and exports (audited); a cashier gets 403 on
// every route.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { freshPhone } from '../testing/processes';
import type { RelayedApp } from '../testing/relayed-app';
import { addPdv, asPdv, asTerminal, postPurchase, relayedAppPerFile } from './testing/clients';
import type { AlertDetail, AlertWire } from '#contract/api/vigilancia';
import type { AuditEntry } from '#contract/api/auditoria';

/** What the tests read of an answer's `data` (each test knows which route it asked). */
type Data = {
  itens: (AlertWire & AuditEntry)[];
  total: number;
  alertas_abertos: { estornos: number };
} & AlertDetail;

const MARIA_CPF = '52998224725';
let run: RelayedApp;
let token = '';

relayedAppPerFile(
  'vigilancia',
  { PDV_SENHA_ATENDENTE: '1234', CONTINGENCY_FAILURES: '100' },
  async (started) => {
    run = started;
    token = (await addPdv(run)).token;
  },
);

async function as(role: 'caixa' | 'gerente', method: string, path: string, body?: unknown) {
  const res = await asTerminal(run, role, method, path, body);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { message: string; data: Data } };
}

async function pdv(method: string, path: string, body?: unknown) {
  const res = await asPdv(run.app.url, token, method, path, body);
  return {
    status: res.status,
    body: (await res.json()) as { data: { venda: { estado: string } } },
  };
}

async function alerts(query = ''): Promise<AlertWire[]> {
  const r = await as('gerente', 'GET', `/api/vigilancia/alertas${query}`);
  expect(r.status).toBe(200);
  return r.body.data.itens;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 100));
  }
}

test('a cashier is refused every Vigilância route', async () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/vigilancia/alertas'],
    ['GET', '/api/vigilancia/alertas/1'],
    ['POST', '/api/vigilancia/alertas/1/decisao', { acao: 'reconhecer', nota: 'ok ok' }],
    ['GET', '/api/vigilancia/exportar'],
    ['GET', '/api/vigilancia/regras'],
    ['PUT', '/api/vigilancia/regras', { regras: [] }],
  ];
  for (const [method, path, body] of routes) {
    const r = await as('caixa', method, path, body);
    expect(r.status, `${method} ${path}`).toBe(403);
  }
});

test('an amount typed at a counter whose PDV sends every sale is flagged as it settles', async () => {
  const celular = freshPhone();
  const res = await postPurchase(run.app.url, run.cookies.caixa, celular, 8_800);
  expect(res.status).toBe(200);
  const found = await until(
    () => alerts('?regra=sem_venda_pdv'),
    (xs) => xs.length > 0,
  );
  expect(found).toHaveLength(1);
  expect(found[0]!.valor).toBe(8_800);
  expect(found[0]!.cliente).toMatch(/^\(11\) 9••••-\d{4}$/);
  const detail = await as('gerente', 'GET', `/api/vigilancia/alertas/${found[0]!.id}`);
  expect(detail.body.data.evidencia.venda_pdv).toBeNull();
  expect(detail.body.data.lancamentos).toHaveLength(1);
  expect(detail.body.data.turno!.link).toMatch(/^\/api\/lancamentos\?de=/);
});

test("the PDV's cancel of a posted sale answers 409 and is recorded once, however often re-sent", async () => {
  const sale = { id_venda: `v-${randomUUID()}`, valor_gasto: 4_590, cpf: MARIA_CPF };
  await pdv('POST', '/api/integracao/vendas', sale);
  const posted = await until(
    () => pdv('GET', `/api/integracao/vendas/${sale.id_venda}?aguardar=5`),
    (r) => r.body.data.venda.estado === 'lançada',
  );
  expect(posted.body.data.venda.estado).toBe('lançada');
  const codes: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    codes.push((await pdv('POST', `/api/integracao/vendas/${sale.id_venda}/cancelar`)).status);
  }
  console.log(`cancel answers: ${codes.join(', ')}`);
  expect(codes).toEqual([409, 409, 409]);
  const found = await alerts('?regra=estorno_apos_pontuacao');
  console.log(`estorno após pontuação alerts: ${found.length}`);
  expect(found).toHaveLength(1);
  expect(found[0]!.resumo).toContain(sale.id_venda);
  expect(found[0]!.resumo).toContain('estorne os pontos no painel do programa');
  const painel = await as('gerente', 'GET', '/api/painel?de=2020-01-01&ate=2020-01-01');
  expect(painel.body.data.alertas_abertos.estornos).toBeGreaterThanOrEqual(1);
});

test('a manager acknowledges an alert with a note and exports: both in the audit trail', async () => {
  const [first] = await alerts('?estado=aberto');
  const refused = await as('gerente', 'POST', `/api/vigilancia/alertas/${first!.id}/decisao`, {
    acao: 'reconhecer',
    nota: '',
  });
  expect(refused.status).toBe(422);
  const done = await as('gerente', 'POST', `/api/vigilancia/alertas/${first!.id}/decisao`, {
    acao: 'reconhecer',
    nota: 'Conferido com a fita do caixa',
  });
  expect(done.status).toBe(200);
  expect(done.body.data.alerta.estado).toBe('reconhecido');
  expect(done.body.data.alerta.decidido_por).toBe('Teste gerente');
  const again = await as('gerente', 'POST', `/api/vigilancia/alertas/${first!.id}/decisao`, {
    acao: 'descartar',
    nota: 'de novo',
  });
  expect(again.status).toBe(409);
  const exported = await as('gerente', 'GET', '/api/vigilancia/exportar');
  expect(exported.status).toBe(200);
  expect(exported.body.data.total).toBeGreaterThanOrEqual(2);
  const trail = await as('gerente', 'GET', '/api/auditoria');
  const actions = trail.body.data.itens.map((e) => [e.acao, e.terminal?.nome, e.detalhes]);
  expect(actions).toContainEqual([
    'vigilancia.decisao',
    'Teste gerente',
    expect.objectContaining({ decisao: 'reconhecido', nota: 'Conferido com a fita do caixa' }),
  ]);
  expect(actions).toContainEqual([
    'exportacao',
    'Teste gerente',
    expect.objectContaining({ tipo: 'vigilancia' }),
  ]);
});

test('opening hours are HH:MM: a wrong one answers 422 naming the field, a night range is kept', async () => {
  const wrong = await as('gerente', 'PUT', '/api/vigilancia/regras', {
    regras: [
      { codigo: 'fora_do_horario', ligada: true, parametros: { abre: '25:00', fecha: '02:00' } },
    ],
  });
  expect(wrong.status).toBe(422);
  const errors = (wrong.body as unknown as { errors: Record<string, string[]> }).errors;
  expect(errors).toEqual({
    'regras.0.parametros.abre': ['Informe a hora como HH:MM, de 00:00 a 23:59.'],
  });
  const night = await as('gerente', 'PUT', '/api/vigilancia/regras', {
    regras: [
      { codigo: 'fora_do_horario', ligada: true, parametros: { abre: '18:00', fecha: '02:00' } },
    ],
  });
  expect(night.status).toBe(200);
  const read = await as('gerente', 'GET', '/api/vigilancia/regras');
  const regras = (read.body.data as unknown as { regras: { codigo: string; parametros: object }[] })
    .regras;
  expect(regras.find((r) => r.codigo === 'fora_do_horario')!.parametros).toEqual({
    abre: '18:00',
    fecha: '02:00',
  });
});
