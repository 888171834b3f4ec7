// The audit trail through the app server over the embedded sandbox: each audited action done
// once through its route appears once, with the terminal that did it and the request id its
// answer carried; a manager reads it (filters, pages), nobody else; no route changes or
// deletes an entry; nothing in it holds a password, a full CPF or a phone.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { AuditExport, AuditPage } from '#contract/api/auditoria';
import { addTerminal, createJournalStore, enrollDirectly, openStore, readAudit } from '../store';
import type { Role, Store } from '../store';
import { TEST_SECRET } from '../testing/app-harness';
import { terminalCli } from '../testing/spawn';
import { everyAuditEntry } from '../testing/store-fixture';
import { signCredential } from './domain/credential';
import { createAuditTrail, maskDetails } from './domain/audit';
import { sealKeyFrom } from './domain/journal/sealed';
import { credentialCookieName } from './http/access/terminal';
import {
  embeddedPostings,
  NO_RATE_LIMITS,
  switchableCircuit,
  testAppServer,
} from './testing/embedded-postings';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const MARIA = '+5511987654321';
const CHAVEIRO = 3; // Maria (id 1) has one pending (seed)

async function setup() {
  let clock = Date.now();
  const store: Store = await openStore({ sqlitePath: ':memory:', now: () => clock });
  closers.push(() => store.close());
  const { circuit, set: setOpen } = switchableCircuit(false);
  const { upstream, service: postings } = await embeddedPostings(closers, {
    store: createJournalStore(store),
    circuit,
    sealKey: sealKeyFrom(TEST_SECRET),
    now: () => clock,
  });
  const app = testAppServer({ ...upstream, store, postings, circuit, limits: NO_RATE_LIMITS });
  let n = 0;
  /** Every request carries its own x-request-id: the one the trail must show. */
  const send = async (cookie: string | null, path: string, init: RequestInit = {}) => {
    n += 1;
    const requestId = `test-req-${String(n).padStart(4, '0')}`;
    const headers = new Headers(init.headers);
    headers.set('x-request-id', requestId);
    if (cookie !== null) headers.set('cookie', cookie);
    if (init.method && init.method !== 'GET') {
      headers.set('origin', 'http://localhost');
      headers.set('content-type', 'application/json');
    }
    const res = await app.request(`http://localhost${path}`, { ...init, headers });
    expect(res.headers.get('x-request-id')).toBe(requestId);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const body = (await res.json().catch(() => null)) as any;
    return { status: res.status, body, requestId };
  };
  async function terminal(role: Role, name: string) {
    const { terminal: t, nonce } = await enrollDirectly(store, { name, role });
    const cookie = `${credentialCookieName('http://localhost/')}=${signCredential(TEST_SECRET, t.id, nonce)}`;
    return {
      id: t.id,
      name,
      request: (path: string, init?: RequestInit) => send(cookie, path, init),
      post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
        send(cookie, path, { method: 'POST', body: JSON.stringify(body), headers }),
    };
  }
  return {
    store,
    postings,
    send,
    terminal,
    setOpen,
    advance: (ms: number) => (clock += ms),
  };
}

type Terminal = Awaited<ReturnType<Awaited<ReturnType<typeof setup>>['terminal']>>;

/** Every entry of the trail, read through the manager's route page by page. */
async function readTrail(gerente: Terminal, query = '') {
  const items: AuditPage['itens'] = [];
  for (let pagina = 1; ; pagina++) {
    const res = await gerente.request(`/api/auditoria?pagina=${pagina}${query}`);
    expect(res.status).toBe(200);
    const page = AuditPage.parse(res.body.data);
    items.push(...page.itens);
    if (pagina >= page.paginas) return items;
  }
}

describe('the audit trail', () => {
  test('each audited action appears once, with its terminal and request id', async () => {
    const s = await setup();
    const gerente = await s.terminal('gerente', 'Gerência');
    const caixa = await s.terminal('caixa', 'Caixa 1');
    const kiosk = await s.terminal('quiosque', 'Quiosque 1');
    const expected: { action: string; terminal: number; requestId: string }[] = [];
    const expectOk = (r: { status: number; requestId: string }, status: number) => {
      expect(r.status).toBe(status);
      return r.requestId;
    };

    // Enrollment with a manager's code: the new terminal is the actor.
    const { terminal: added, code } = await addTerminal(s.store, {
      name: 'Caixa 2',
      role: 'caixa',
    });
    const enrolled = await s.send(null, '/api/terminal/registrar', {
      method: 'POST',
      body: JSON.stringify({ codigo: code }),
    });
    expected.push({
      action: 'terminal.registrado',
      terminal: added.id,
      requestId: expectOk(enrolled, 200),
    });

    // Two sales kept while the service is down, refused at delivery (wrong password).
    s.setOpen(true);
    const keep = async (celular: string) => {
      const r = await gerente.post(
        '/api/v4/estabelecimentos/1/fidelidade/pontuar',
        { valor_gasto: 1000, senha_atendente: '9999', cliente: { celular } },
        { 'idempotency-key': randomUUID() },
      );
      expect(r.status).toBe(202);
      return r.body.data.chave as string;
    };
    const [k1, k2] = [await keep('+5511955557001'), await keep('+5511955557002')];
    s.setOpen(false);
    await s.postings.deliver();
    await expect
      .poll(async () => (await gerente.request(`/api/lancamentos/${k2}`)).body.data.estado)
      .toBe('precisa de atenção');
    await expect
      .poll(async () => (await gerente.request(`/api/lancamentos/${k1}`)).body.data.estado)
      .toBe('precisa de atenção');
    const discarded = await gerente.post(`/api/lancamentos/${k1}/descartar`, {});
    expected.push({
      action: 'venda.descartada',
      terminal: gerente.id,
      requestId: expectOk(discarded, 200),
    });
    expect((await gerente.post(`/api/lancamentos/${k1}/descartar`, {})).status).toBe(409);
    const resent = await gerente.post(`/api/lancamentos/${k2}/reenviar`, {
      senha_atendente: '1234',
    });
    expected.push({
      action: 'venda.reenviada',
      terminal: gerente.id,
      requestId: expectOk(resent, 200),
    });

    // A sale staged for the kiosk, cancelled (a second cancel is refused, not recorded).
    const staged = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 2500,
      senha_atendente: '1234',
    });
    expect(staged.status).toBe(201);
    const saleId = staged.body.data.venda.id as string;
    const cancelled = await caixa.post(`/api/quiosque/vendas/${saleId}/cancelar`, {});
    expected.push({
      action: 'quiosque.venda_cancelada',
      terminal: caixa.id,
      requestId: expectOk(cancelled, 200),
    });
    expect((await caixa.post(`/api/quiosque/vendas/${saleId}/cancelar`, {})).status).toBe(409);

    // Leaving kiosk mode with the attendant password (a wrong one is not an exit).
    expect((await kiosk.post('/api/quiosque/sair', { senha_atendente: '0000' })).status).toBe(422);
    const left = await kiosk.post('/api/quiosque/sair', { senha_atendente: '1234' });
    expected.push({ action: 'quiosque.saida', terminal: kiosk.id, requestId: expectOk(left, 200) });

    // Password lockouts: a cashier's postings, a kiosk's exit (its exit above cleared the wrong
    // one before it): the 5th wrong in a row locks. Attempts on a locked terminal are refused and not recorded again.
    const caixa3 = await s.terminal('caixa', 'Caixa 3');
    let lockedAt = '';
    for (let i = 1; i <= 6; i++) {
      const r = await caixa3.post(
        '/api/v4/estabelecimentos/1/fidelidade/pontuar',
        { valor_gasto: 1000, senha_atendente: '0000', cliente: { celular: MARIA } },
        { 'idempotency-key': randomUUID() },
      );
      expect(r.status, `attempt ${i}`).toBe(i < 5 ? 422 : 429);
      if (i === 5) lockedAt = r.requestId;
    }
    expected.push({ action: 'senha.bloqueada', terminal: caixa3.id, requestId: lockedAt });
    let kioskLockedAt = '';
    for (let i = 1; i <= 6; i++) {
      const r = await kiosk.post('/api/quiosque/sair', { senha_atendente: '0000' });
      expect(r.status, `kiosk attempt ${i}`).toBe(i < 5 ? 422 : 429);
      if (i === 5) kioskLockedAt = r.requestId;
    }
    expected.push({ action: 'senha.bloqueada', terminal: kiosk.id, requestId: kioskLockedAt });

    // A reward handed over; the same key again is the same hand-over (not recorded again).
    const key = randomUUID();
    const handOver = () =>
      caixa.post(
        '/api/v4/estabelecimentos/1/fidelidade/resgatar-premio',
        { id_premio: CHAVEIRO, id_cliente: 1, senha_atendente: '1234' },
        { 'idempotency-key': key },
      );
    const handed = await handOver();
    expected.push({
      action: 'premio.entrega',
      terminal: caixa.id,
      requestId: expectOk(handed, 200),
    });
    expect((await handOver()).status).toBe(200);

    // Exports: one the browser writes (recorded before it writes it), the trail's own.
    const ledgerExport = await caixa.post('/api/auditoria/exportacoes', {
      tipo: 'lancamentos',
      filtros: { dia: '2026-11-23', terminal: String(caixa.id) },
      linhas: 3,
    });
    expected.push({
      action: 'exportacao',
      terminal: caixa.id,
      requestId: expectOk(ledgerExport, 201),
    });
    const trailExport = await gerente.request('/api/auditoria/exportar?acao=venda.descartada');
    expect(AuditExport.parse(trailExport.body.data).total).toBe(1);
    expected.push({
      action: 'exportacao',
      terminal: gerente.id,
      requestId: expectOk(trailExport, 200),
    });

    const trail = await readTrail(gerente);
    const seen = trail
      .map((e) => ({ action: e.acao, terminal: e.terminal?.id, requestId: e.requisicao }))
      .sort((a, b) => a.requestId!.localeCompare(b.requestId!));
    expect(seen).toEqual([...expected].sort((a, b) => a.requestId.localeCompare(b.requestId)));
    const count = (a: string) => trail.filter((e) => e.acao === a).length;
    console.log(
      `[audit] actions=${expected.length} entries=${trail.length} ` +
        `lockouts=${count('senha.bloqueada')} hand-overs=${count('premio.entrega')} exports=${count('exportacao')}`,
    );
    const byAction = (a: string) => trail.filter((e) => e.acao === a);
    expect(byAction('terminal.registrado')[0]!.terminal).toEqual({ id: added.id, nome: 'Caixa 2' });
    expect(byAction('exportacao').map((e) => e.detalhes)).toContainEqual({
      tipo: 'auditoria',
      filtros: { acao: 'venda.descartada' },
      linhas: 1,
    });
    expect(byAction('exportacao').map((e) => e.detalhes)).toContainEqual({
      tipo: 'lancamentos',
      filtros: { dia: '2026-11-23', terminal: String(caixa.id) },
      linhas: 3,
    });
    expect(byAction('premio.entrega')[0]!.detalhes).toMatchObject({
      id_cliente: 1,
      id_premio: CHAVEIRO,
      estado: 'lançado',
    });
    // Nothing of a password anywhere in the trail.
    const text = JSON.stringify(trail);
    for (const secret of ['1234', '9999', '0000', 'senha_atendente']) {
      expect(text.includes(secret), secret).toBe(false);
    }
  });

  test('a manager filters by action and terminal and pages; other roles are refused', async () => {
    const s = await setup();
    const gerente = await s.terminal('gerente', 'Gerência');
    const caixa = await s.terminal('caixa', 'Caixa 1');
    const kiosk = await s.terminal('quiosque', 'Quiosque 1');
    for (let i = 0; i < 55; i++) {
      const r = await caixa.post('/api/auditoria/exportacoes', {
        tipo: 'lancamentos',
        filtros: {},
        linhas: i,
      });
      expect(r.status).toBe(201);
    }
    const first = await gerente.request(`/api/auditoria?acao=exportacao&terminal=${caixa.id}`);
    const page = AuditPage.parse(first.body.data);
    expect(page).toMatchObject({ total: 55, paginas: 2, pagina: 1, por_pagina: 50 });
    expect(page.itens).toHaveLength(50);
    expect(page.itens[0]!.detalhes).toMatchObject({ linhas: 54 });
    expect(page.terminais.map((t) => t.nome)).toEqual(['Gerência', 'Caixa 1', 'Quiosque 1']);
    const second = AuditPage.parse(
      (await gerente.request(`/api/auditoria?acao=exportacao&pagina=2`)).body.data,
    );
    expect(second.itens).toHaveLength(5);
    const none = AuditPage.parse(
      (await gerente.request(`/api/auditoria?terminal=${gerente.id}`)).body.data,
    );
    expect(none).toMatchObject({ total: 0, itens: [] });
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const dated = AuditPage.parse(
      (await gerente.request(`/api/auditoria?de=${today}&ate=${today}&fuso=-180`)).body.data,
    );
    expect(dated.total).toBe(55);
    expect(
      (await gerente.request('/api/auditoria?de=2020-01-01&ate=2020-01-02')).body.data,
    ).toMatchObject({ total: 0 });

    for (const [query, field] of [
      ['de=2026-02-30', 'de'],
      ['de=2026-03-02&ate=2026-03-01', 'ate'],
      ['acao=apagar', 'acao'],
      ['terminal=abc', 'terminal'],
      ['pagina=0', 'pagina'],
    ] as const) {
      const r = await gerente.request(`/api/auditoria?${query}`);
      expect(r.status, query).toBe(422);
      expect(Object.keys(r.body.errors), query).toContain(field);
    }
    expect((await caixa.request('/api/auditoria')).status).toBe(403);
    expect((await caixa.request('/api/auditoria/exportar')).status).toBe(403);
    expect((await kiosk.request('/api/auditoria')).status).toBe(403);
    expect(
      (
        await kiosk.post('/api/auditoria/exportacoes', {
          tipo: 'lancamentos',
          filtros: {},
          linhas: 1,
        })
      ).status,
    ).toBe(403);
    expect(
      (await caixa.post('/api/auditoria/exportacoes', { tipo: 'premios', filtros: {}, linhas: 1 }))
        .status,
    ).toBe(403);
    expect((await s.send(null, '/api/auditoria')).status).toBe(401);
    const bad = await caixa.post('/api/auditoria/exportacoes', { tipo: 'tudo', linhas: -1 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['filtros', 'linhas', 'tipo']);
  });

  test('no route changes or deletes an entry', async () => {
    const s = await setup();
    const gerente = await s.terminal('gerente', 'Gerência');
    await gerente.post('/api/auditoria/exportacoes', { tipo: 'premios', filtros: {}, linhas: 2 });
    const [entry] = await readTrail(gerente);
    const tries: number[] = [];
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      for (const path of [`/api/auditoria/${entry!.id}`, '/api/auditoria']) {
        const r = await gerente.request(path, { method, body: '{}' });
        tries.push(r.status);
        expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await readTrail(gerente)).toEqual([entry]);
    console.log(`[audit] change or delete attempts=${tries.length} answered=${tries.join(',')}`);
  });

  test('an entry holds no password, no full CPF or phone', async () => {
    expect(
      maskDetails({
        senha_atendente: '1234',
        filtros: {
          cpf: '123.456.789-09',
          celular: '+55 (11) 98765-4321',
          q: 'cliente 11987654321',
          token: 'x',
          de: '2026-11-23',
          chave: '550e8400-e29b-41d4-a716-446655440000',
          valor: 12345678901,
        },
        linhas: 3,
      }),
    ).toEqual({
      filtros: {
        cpf: '•••09',
        celular: '•••21',
        q: 'cliente •••21',
        de: '2026-11-23',
        chave: '550e8400-e29b-41d4-a716-446655440000',
        valor: '•••01',
      },
      linhas: 3,
    });
    const s = await setup();
    const gerente = await s.terminal('gerente', 'Gerência');
    const r = await gerente.post('/api/auditoria/exportacoes', {
      tipo: 'premios',
      filtros: { q: 'CPF 12345678909', senha: 'x' },
      linhas: 0,
    });
    expect(r.status).toBe(201);
    const [entry] = await readTrail(gerente);
    expect(entry!.detalhes).toEqual({ tipo: 'premios', filtros: { q: 'CPF •••09' }, linhas: 0 });
  });

  test('the retention purge removes what is older than AUDIT_RETENTION_DAYS, nothing newer', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const store = await openStore({ sqlitePath: ':memory:', now: () => clock });
    closers.push(() => store.close());
    const trail = createAuditTrail({ store, retentionDays: 30 });
    const actor = { terminalId: 1, terminalName: 'T', role: 'gerente', requestId: 'r' };
    await trail.record(actor, 'exportacao', { linhas: 1 });
    clock += 20 * 86_400_000;
    await trail.record(actor, 'exportacao', { linhas: 2 });
    clock += 15 * 86_400_000;
    expect(await trail.purge()).toBe(1);
    expect(await trail.purge()).toBe(0);
    const left = await trail.page({
      de: null,
      ate: null,
      acao: null,
      terminal: null,
      fuso: -180,
      pagina: 1,
    });
    expect(left.itens.map((e) => e.detalhes)).toEqual([{ linhas: 2 }]);
  });

  test('npm run terminal records a terminal added and revoked once, as the command line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-cli-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { APP_DB: path.join(dir, 'app.db') };
    const out = await terminalCli(['add', '--role', 'caixa', '--name', 'Caixa 7'], env);
    const id = Number(/^Terminal (\d+) /m.exec(out)?.[1]);
    await terminalCli(['revoke', String(id)], env);
    await terminalCli(['revoke', String(id)], env); // already revoked: nothing new
    const store = await openStore({ sqlitePath: env.APP_DB });
    closers.push(() => store.close());
    const { entries } = await readAudit(store, everyAuditEntry());
    expect(entries.map((e) => [e.action, e.terminalId, e.role, e.details])).toEqual([
      ['terminal.revogado', null, null, { terminal: { id, nome: 'Caixa 7', papel: 'caixa' } }],
      ['terminal.criado', null, null, { terminal: { id, nome: 'Caixa 7', papel: 'caixa' } }],
    ]);
    expect(entries.every((e) => /^cli-[0-9a-f-]{36}$/.test(e.requestId ?? ''))).toBe(true);
  }, 60_000);
});
