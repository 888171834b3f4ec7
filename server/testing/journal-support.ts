/**
 * Test support for the journal: its store on a fresh in-memory SQLite, a posting service
 * started on it with the waits shrunk, and a scriptable upstream.
 */
import { afterEach } from 'vitest';
import { createJournalStore, openStore } from '../store';
import type { PostingServiceOptions, UpstreamCall } from '../app/domain/journal/context';
import { createPostingService } from '../app/domain/journal/service';

export async function sqliteJournal() {
  const store = await openStore({ sqlitePath: ':memory:' });
  return { db: store.db, store: createJournalStore(store), close: () => store.close() };
}

/** The journal's waits shrunk for the tests (a file adds or overrides what it is about). */
export const FAST_JOURNAL = {
  quietMs: 60,
  unknownHorizonMs: 400,
  recheckMs: 40,
  leaseMs: 150,
  sweepMs: 20,
  waitMs: 2_000,
  slotWaitMs: 3_000,
};

/** A test file's clean-up: what a test pushes runs after it, the last pushed first. */
export function cleanupAfterEach(): (() => Promise<unknown>)[] {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  return cleanup;
}

/**
 * A posting service of establishment 1 on a new in-memory journal, `call` answering for the
 * service, started; `cleanup` stops it and closes its journal after the test.
 */
export async function startedService(
  cleanup: (() => Promise<unknown>)[],
  call: UpstreamCall,
  options: Omit<Partial<PostingServiceOptions>, 'store' | 'call'>,
) {
  const journal = await sqliteJournal();
  const service = createPostingService({
    store: journal.store,
    call,
    establishmentId: 1,
    ...options,
  });
  service.start();
  cleanup.push(journal.close, () => service.stop());
  return { journal, service };
}

type Outcome =
  /** Commit and answer. */
  | 'ok'
  /** Answer 422 without committing. */
  | 'refuse'
  /** Commit, then lose the answer (connection reset). */
  | 'commit-then-reset'
  /** Lose the connection without committing. */
  | 'reset'
  /** Commit, then answer 500 with an untrustworthy body. */
  | 'commit-then-500'
  /** Never answer; commit `ms` after the request (even if it was aborted). */
  | { hangAndCommitAfter: number }
  /** Answer normally after `ms` (aborted requests do not commit). */
  | { delay: number };

interface Customer {
  id: number;
  celular: string;
  nome: string;
  compras: number;
  ultima: string | null;
  saldo: number;
  /** Points held in carência (with `carencia`: every purchase's, until the next day). */
  carencia: number;
  /** Points of each purchase, oldest first. */
  credits: number[];
}

/**
 * A stand-in of the service's pontuar and buscar, with a queue of outcomes for pontuar. It
 * counts commits per phone and the most pontuar requests in flight at once per phone. One
 * point per 100 cents; with `rewardCost`, a posting that brings the balance to the cost wins
 * a reward and the cost is debited (as the service does); with `carencia`, a purchase's points
 * are held in carência (as an establishment that counts them the next day).
 */
export function scriptedUpstream(options: { rewardCost?: number; carencia?: boolean } = {}) {
  const customers = new Map<string, Customer>();
  const outcomes: Outcome[] = [];
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  let nextId = 1;
  let calls = 0;
  let buscarFails = false;
  /** The status buscar refuses every read with (a 4xx), or null. */
  let buscarRefuses: number | null = null;
  let buscarCalls = 0;
  let down = false;
  const passwords: string[] = [];
  /** Every commit in order: phone and amount. */
  const committed: { celular: string; valor: number }[] = [];

  function commit(celular: string, nome: string | undefined, valor: number) {
    let c = customers.get(celular);
    if (!c) {
      c = {
        id: nextId++,
        celular,
        nome: nome ?? 'CLIENTE DESCONHECIDO',
        compras: 0,
        ultima: null,
        saldo: 0,
        carencia: 0,
        credits: [],
      };
      customers.set(celular, c);
    }
    c.compras += 1;
    committed.push({ celular, valor });
    c.ultima = `2026-11-23 10:00:${String(c.compras).padStart(2, '0')}`;
    const points = Math.floor(valor / 100);
    c.credits.push(points);
    if (options.carencia) c.carencia += points;
    else c.saldo += points;
    if (options.rewardCost !== undefined) {
      while (c.saldo >= options.rewardCost) c.saldo -= options.rewardCost;
    }
    return c;
  }

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const call: UpstreamCall = async (op, body, signal) => {
    const b = body as Record<string, unknown>;
    if (down) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    if (op === 'buscar') {
      buscarCalls += 1;
      if (buscarFails) throw new TypeError('fetch failed');
      if (buscarRefuses !== null) {
        return json(buscarRefuses, {
          success: false,
          message: 'Celular inválido. Use o formato internacional, por exemplo +5511987654321.',
          data: {},
          errors: { celular: ['Celular inválido.'] },
        });
      }
      const c =
        typeof b.id_cliente === 'number'
          ? [...customers.values()].find((x) => x.id === b.id_cliente)
          : customers.get(String(b.celular));
      if (!c) return json(404, { success: false, message: 'Cliente não encontrado', data: {} });
      return json(200, {
        success: true,
        message: 'ok',
        data: {
          id_cliente: c.id,
          nome: c.nome,
          celular: c.celular,
          compras: c.compras,
          ultima_compra: c.ultima,
          carteira: {
            saldo: c.saldo,
            saldo_carencia: c.carencia,
            historico: c.credits.map((pontos) => ({ tipo: 'credito', pontos })).reverse(),
          },
        },
      });
    }
    calls += 1;
    passwords.push(String(b.senha_atendente));
    const cliente = b.cliente as { celular: string; nome?: string };
    const celular = cliente.celular;
    inFlight.set(celular, (inFlight.get(celular) ?? 0) + 1);
    maxInFlight.set(celular, Math.max(maxInFlight.get(celular) ?? 0, inFlight.get(celular)!));
    const outcome = outcomes.shift() ?? 'ok';
    const valor = Number(b.valor_gasto);
    try {
      const answerOf = (c: Customer) =>
        json(200, {
          success: true,
          message: 'Pontos lançados',
          data: {
            id_cliente: c.id,
            id_ponto: 1000 + calls,
            saldo_atual: c.saldo,
            saldo_carencia: c.carencia,
          },
        });
      if (outcome === 'ok') return answerOf(commit(celular, cliente.nome, valor));
      if (outcome === 'refuse')
        return json(422, {
          success: false,
          message: 'Senha do atendente inválida.',
          data: {},
          errors: { senha_atendente: ['Senha do atendente inválida.'] },
        });
      if (outcome === 'commit-then-reset') {
        commit(celular, cliente.nome, valor);
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      }
      if (outcome === 'reset')
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      if (outcome === 'commit-then-500') {
        commit(celular, cliente.nome, valor);
        return new Response('<html>Bad gateway</html>', { status: 502 });
      }
      if ('hangAndCommitAfter' in outcome) {
        setTimeout(() => commit(celular, cliente.nome, valor), outcome.hangAndCommitAfter);
        return await new Promise<Response>((_, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, outcome.delay);
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
      return answerOf(commit(celular, cliente.nome, valor));
    } finally {
      inFlight.set(celular, inFlight.get(celular)! - 1);
    }
  };

  return {
    call,
    outcomes,
    customers,
    commits: (celular: string) => customers.get(celular)?.compras ?? 0,
    maxInFlight: (celular: string) => maxInFlight.get(celular) ?? 0,
    calls: () => calls,
    buscarCalls: () => buscarCalls,
    /** Every read is refused with this status (a 4xx), or answered again (null). */
    setBuscarRefuses(status: number | null) {
      buscarRefuses = status;
    },
    setBuscarFails(v: boolean) {
      buscarFails = v;
    },
    /** Every request fails as an unreachable service does. */
    setDown(v: boolean) {
      down = v;
    },
    committed,
    /** The passwords pontuar received, in order. */
    passwords,
  };
}
