// Handing a reward over through the journal (handover.ts), against a scripted service that
// keeps one customer's reward records: the answer, a lost answer decided by re-reading the
// records (never by resending), two hand-overs of one reward at once, recovery after a crash,
// the contingency refusal, and a service without the operation.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { PostingServiceOptions, UpstreamCall } from './context';
import type { PostingService } from './service';
import { cleanupAfterEach, FAST_JOURNAL, startedService } from '../../../testing/journal-support';
import type { JournalEntry } from '../../../store';
import { startedOn } from '../../testing/journal';

const FAST = FAST_JOURNAL;
const NONE = 'O cliente não tem este prêmio para resgatar';
const VALE = 1;

type Outcome = 'ok' | 'commit-then-reset' | 'reset' | 'route-405' | 'route-404-html' | 'hang';

interface RewardRow {
  id: number;
  premio: number;
  status: 'pendente_resgate' | 'resgatado' | 'expirado';
  resgate: string | null;
}

/** One customer (id 2) with reward records, and resgatar-premio as decisions.md says it. */
function rewardsUpstream(pending: number) {
  const rows: RewardRow[] = [];
  for (let i = 0; i < pending; i++)
    rows.push({ id: 10 + i, premio: VALE, status: 'pendente_resgate', resgate: null });
  const outcomes: Outcome[] = [];
  let handOvers = 0;
  let down = false;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const commit = (premio: number) => {
    const row = rows.find((r) => r.premio === premio && r.status === 'pendente_resgate');
    if (row === undefined) return null;
    row.status = 'resgatado';
    row.resgate = '2026-11-26 10:00:00';
    return row;
  };
  const call: UpstreamCall = async (op, body) => {
    if (down) throw new TypeError('fetch failed');
    const b = body as Record<string, unknown>;
    if (op === 'buscar') {
      if (b.id_cliente !== 2)
        return json(404, { success: false, message: 'Cliente não encontrado', data: {} });
      return json(200, {
        success: true,
        message: 'ok',
        data: { id_cliente: 2, nome: 'João', celular: '+5521998765432' },
      });
    }
    if (op === 'recompensas') {
      const data = rows
        .filter((r) => r.status === b.status)
        .map((r) => ({
          id_premio_cliente: r.id,
          id_cliente: 2,
          id_premio: r.premio,
          nome: 'Vale-compras de R$ 10,00',
          premio_status: r.status,
          data_resgate: r.resgate,
          valido_ate: '2026-12-16 23:59:59',
        }));
      return json(200, { success: true, message: 'ok', data: { data, next_page_url: null } });
    }
    if (op !== 'resgatar-premio') throw new Error(`unexpected ${op}`);
    handOvers += 1;
    const outcome = outcomes.shift() ?? 'ok';
    if (outcome === 'route-405') return new Response('Method Not Allowed', { status: 405 });
    if (outcome === 'route-404-html') return new Response('<h1>Not Found</h1>', { status: 404 });
    if (outcome === 'reset') throw new TypeError('fetch failed');
    if (outcome === 'hang') return new Promise<Response>(() => undefined);
    await new Promise((r) => setTimeout(r, 5));
    const row = commit(Number(b.id_premio));
    if (row === null) {
      return json(422, { success: false, message: NONE, data: {}, errors: { id_premio: [NONE] } });
    }
    if (outcome === 'commit-then-reset') throw new TypeError('fetch failed');
    return json(200, {
      success: true,
      message: 'Prêmio resgatado com sucesso.',
      data: { id_cliente: 2, id_premio_cliente: row.id },
    });
  };
  return {
    call,
    rows,
    outcomes,
    handOvers: () => handOvers,
    resgatados: () => rows.filter((r) => r.status === 'resgatado').length,
    setDown: (v: boolean) => (down = v),
  };
}

const cleanup = cleanupAfterEach();

async function setup(pending = 1, extra: Partial<PostingServiceOptions> = {}) {
  const upstream = rewardsUpstream(pending);
  const { journal, service } = await startedService(cleanup, upstream.call, { ...FAST, ...extra });
  return { journal, upstream, service };
}

const body = (senha = '1234') => ({ id_premio: VALE, id_cliente: 2, senha_atendente: senha });
const handOver = (service: PostingService, key: string = randomUUID(), b: unknown = body()) =>
  service.handOver({ key, terminalId: 't1', requestId: 'r1', body: b });

/** A hand-over of one of `pending` rewards whose answer is lost (`outcome`), once settled. */
async function lostAnswer(pending: number, outcome: 'commit-then-reset' | 'reset') {
  const { service, upstream } = await setup(pending);
  upstream.outcomes.push(outcome);
  const key = randomUUID();
  await handOver(service, key);
  return { upstream, e: await settled(service, key) };
}

async function settled(service: PostingService, key: string): Promise<JournalEntry> {
  const until = Date.now() + 3_000;
  for (;;) {
    const e = await service.get(key);
    if (e && (e.state === 'lançado' || e.state === 'recusado' || e.settledAt !== null)) return e;
    if (Date.now() > until) throw new Error(`not settled: ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a hand-over', () => {
  test('answered: the service answer kept, the same key and body is the same hand-over', async () => {
    const { service, upstream } = await setup(2);
    const key = randomUUID();
    const r = await handOver(service, key);
    expect(r.kind).toBe('entry');
    const e = (r as { entry: JournalEntry }).entry;
    expect(e).toMatchObject({ state: 'lançado', kind: 'premio', answerStatus: 200, amount: 0 });
    expect(e.customerKey).toBe('+5521998765432');
    expect(e.reward).toMatchObject({ id_premio: VALE, id_cliente: 2, id_premio_cliente: 10 });
    expect(e.reward?.before).toEqual({ pendentes: [10, 11], resgatados: [] });
    // Another shift's password: the same hand-over; another reward: the key's reuse.
    const again = await handOver(service, key, body('4321'));
    expect(again).toMatchObject({ kind: 'entry', entry: { key, state: 'lançado' } });
    const other = await handOver(service, key, { ...body(), id_premio: 2 });
    expect(other.kind).toBe('invalid');
    expect(upstream.handOvers()).toBe(1);
    expect(upstream.resgatados()).toBe(1);
  });

  test('a lost answer is decided by the records: handed over, sent once', async () => {
    const { upstream, e } = await lostAnswer(2, 'commit-then-reset');
    expect(e).toMatchObject({ state: 'lançado', answerStatus: null, lostKind: 'reset' });
    expect(e.reward?.id_premio_cliente).toBe(10);
    expect(upstream.handOvers()).toBe(1);
    expect(upstream.resgatados()).toBe(1);
  });

  test('a lost answer with nothing handed over is "not handed over" after the quiet period', async () => {
    const { upstream, e } = await lostAnswer(1, 'reset');
    expect(e.state).toBe('recusado');
    expect(upstream.handOvers()).toBe(1);
    expect(upstream.resgatados()).toBe(0);
  });

  test('two hand-overs of one reward at once: one handed over, the other told it already was', async () => {
    const { service, upstream } = await setup(1);
    const [a, b] = await Promise.all([handOver(service), handOver(service)]);
    const entries = [a, b].map((r) => (r as { entry: JournalEntry }).entry);
    const states = entries.map((e) => e.state).sort();
    expect(states).toEqual(['lançado', 'recusado']);
    const refused = entries.find((e) => e.state === 'recusado')!;
    expect(refused.answerStatus).toBe(422);
    expect(JSON.parse(refused.answerBody!)).toMatchObject({
      message: 'Este prêmio já foi entregue.',
      errors: { id_premio: ['Este prêmio já foi entregue.'] },
    });
    expect(upstream.resgatados()).toBe(1);
  });

  test('never won: the service refusal relayed as it is', async () => {
    const { service } = await setup(0);
    const r = await handOver(service);
    const e = (r as { entry: JournalEntry }).entry;
    expect(e.state).toBe('recusado');
    expect(JSON.parse(e.answerBody!).message).toBe(NONE);
  });

  test('after a crash mid-request the sweep settles it from the records, never resending', async () => {
    const { journal, upstream } = await setup(1, { rewardHandover: true });
    // A process that died after sending: its entry journaled as sent, its lease run out.
    const key = randomUUID();
    const t = Date.now();
    await journal.store.create({
      key,
      establishmentId: 1,
      terminalId: 't1',
      requestId: 'r1',
      fingerprint: 'f'.repeat(64),
      customerKey: '+5521998765432',
      customerName: 'João',
      amount: 0,
      owner: 'dead',
      leaseUntil: t - 1,
      createdAt: t,
      kind: 'premio',
      reward: { id_premio: VALE, id_cliente: 2, id_premio_cliente: null, nome: null, before: null },
    });
    await journal.store.update(
      key,
      'dead',
      {
        sentAt: t,
        reward: {
          id_premio: VALE,
          id_cliente: 2,
          id_premio_cliente: null,
          nome: null,
          before: { pendentes: [10], resgatados: [] },
        },
      },
      t,
    );
    upstream.rows[0]!.status = 'resgatado'; // the service committed before the crash
    const service = startedOn(cleanup, journal.store, upstream.call, FAST);
    const e = await settled(service, key);
    expect(e).toMatchObject({ state: 'lançado', lostKind: 'crash' });
    expect(e.reward?.id_premio_cliente).toBe(10);
    expect(upstream.handOvers()).toBe(0);
  });
});

describe('when it cannot be handed over', () => {
  test('the service unreachable: refused at once, nothing journaled (never kept)', async () => {
    const { service, upstream, journal } = await setup(1);
    upstream.setDown(true);
    const key = randomUUID();
    expect((await handOver(service, key)).kind).toBe('unavailable');
    expect(await journal.store.get(key)).toBeNull();
  });

  test('the circuit open: refused at once, nothing read nor sent', async () => {
    const circuit = { isOpen: () => true, onChange: () => () => undefined, openedAt: () => 0 };
    const { service, upstream } = await setup(1, { circuit });
    expect((await handOver(service)).kind).toBe('unavailable');
    expect(upstream.handOvers()).toBe(0);
  });

  test('a service without the operation (405, or a 404 not its envelope): remembered', async () => {
    for (const outcome of ['route-405', 'route-404-html'] as const) {
      const { service, upstream } = await setup(1);
      upstream.outcomes.push(outcome);
      expect(service.handoverAvailable()).toBe(true);
      const r = await handOver(service);
      const e = (r as { entry: JournalEntry }).entry;
      expect(e.state).toBe('recusado');
      expect(JSON.parse(e.answerBody!).data).toEqual({ entrega_indisponivel: true });
      expect(e.answerStatus).toBe(outcome === 'route-405' ? 405 : 404);
      expect(service.handoverAvailable()).toBe(false);
      expect((await handOver(service)).kind).toBe('unsupported');
      expect(upstream.handOvers()).toBe(1);
    }
  });

  test('an unknown customer is the service 404, not a missing operation', async () => {
    const { service } = await setup(1);
    const r = await service.handOver({
      key: randomUUID(),
      terminalId: null,
      requestId: null,
      body: { ...body(), id_cliente: 99 },
    });
    expect(r).toMatchObject({ kind: 'refused', status: 404 });
    expect(service.handoverAvailable()).toBe(true);
  });

  test('REWARD_HANDOVER=0: off altogether', async () => {
    const { service, upstream } = await setup(1, { rewardHandover: false });
    expect(service.handoverAvailable()).toBe(false);
    expect(await handOver(service)).toMatchObject({ kind: 'unsupported', status: 404 });
    expect(upstream.handOvers()).toBe(0);
  });

  test('without a UUID key, or with a bad body: refused, nothing sent', async () => {
    const { service, upstream } = await setup(1);
    expect((await handOver(service, 'nope')).kind).toBe('invalid');
    expect((await handOver(service, randomUUID(), { id_premio: 'x', id_cliente: 2 })).kind).toBe(
      'invalid',
    );
    expect(upstream.handOvers()).toBe(0);
  });
});
