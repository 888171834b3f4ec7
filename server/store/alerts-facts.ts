/** What the vigilância's rules read of the journal and of the PDV's sales, and their figures. */
import type BetterSqlite3 from 'better-sqlite3';
import type { Store } from './store';

/** A journal entry as the rules read it. */
export interface PostingFact {
  key: string;
  establishment_id: number;
  terminal_id: string | null;
  customer_key: string;
  amount: number;
  created_at: number;
  state: string;
  kind: string;
}

const FACT_COLUMNS = [
  'key',
  'establishment_id',
  'terminal_id',
  'customer_key',
  'amount',
  'created_at',
  'state',
  'kind',
] as const;

export const num = (v: unknown): number => Number(v);

function fact(r: PostingFact): PostingFact {
  return { ...r, amount: num(r.amount), created_at: num(r.created_at) };
}

const FACT_SQL = FACT_COLUMNS.join(', ');

/**
 * SQLite: the reads every posting's evaluation makes, prepared once (Kysely compiles and
 * prepares each statement at every call: most of an evaluation's cost otherwise).
 */
function preparedReads(conn: BetterSqlite3.Database) {
  return {
    posting: conn.prepare<[string], PostingFact>(
      `select ${FACT_SQL} from posting_journal where key = ?`,
    ),
    customerDay: conn.prepare<[string, number, number], PostingFact>(
      `select ${FACT_SQL} from posting_journal where customer_key = ? and created_at >= ?
         and created_at < ? and kind = 'pontos' and state = 'lançado'
         order by created_at limit 500`,
    ),
    saleOfPosting: conn.prepare<[string], SaleFact>(
      `select id, sale_id, amount, state, created_at, counter_id from pdv_sales
         where posting_key = ?`,
    ),
  };
}

interface SaleFact {
  id: string;
  sale_id: string;
  amount: number;
  state: string;
  created_at: number;
  counter_id: number | null;
}

/** The postings and sales a rule looks at (SQLite's reads prepared once, see `preparedReads`). */
export function factReads(store: Store) {
  const { db, sqlite } = store;
  let reads: ReturnType<typeof preparedReads> | null = null;
  const withReads = <T>(fn: (r: ReturnType<typeof preparedReads>) => T): Promise<T> =>
    sqlite!.run((conn) => fn((reads ??= preparedReads(conn))));
  return {
    /** The journal entry of `key`, as the rules read it. */
    async posting(key: string): Promise<PostingFact | null> {
      if (sqlite !== null) {
        const row = await withReads((r) => r.posting.get(key));
        return row === undefined ? null : fact(row);
      }
      const r = await db
        .selectFrom('posting_journal')
        .select(FACT_COLUMNS)
        .where('key', '=', key)
        .executeTakeFirst();
      return r === undefined ? null : fact(r);
    },

    async postings(keys: readonly string[]): Promise<PostingFact[]> {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('posting_journal')
        .select(FACT_COLUMNS)
        .where('key', 'in', keys.slice(0, 200))
        .orderBy('created_at')
        .execute();
      return rows.map(fact);
    },

    /** Whether an active PDV (`integracao` terminal) rings up its sales at this counter. */
    async integratedCounter(counterId: number): Promise<boolean> {
      const r = await db
        .selectFrom('terminals')
        .select('id')
        .where('role', '=', 'integracao')
        .where('counter_id', '=', counterId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return r !== undefined;
    },

    /** The PDV sale posted under this journal key, if any. */
    async saleOfPosting(key: string): Promise<SaleFact | null> {
      if (sqlite !== null) return (await withReads((r) => r.saleOfPosting.get(key))) ?? null;
      return (
        (await db
          .selectFrom('pdv_sales')
          .select(['id', 'sale_id', 'amount', 'state', 'created_at', 'counter_id'])
          .where('posting_key', '=', key)
          .executeTakeFirst()) ?? null
      );
    },

    /** The PDV sales of a counter created in [from, to). */
    async salesNear(counterId: number, from: number, to: number) {
      const rows = await db
        .selectFrom('pdv_sales')
        .select(['id', 'sale_id', 'amount', 'state', 'created_at', 'posting_key'])
        .where('counter_id', '=', counterId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .limit(50)
        .execute();
      return rows.map((r) => ({ ...r, amount: num(r.amount), created_at: num(r.created_at) }));
    },

    /** A customer's posted points in [from, to), every store (the chain's). */
    async customerPostings(customerKey: string, from: number, to: number) {
      if (sqlite !== null) {
        return (await withReads((r) => r.customerDay.all(customerKey, from, to))).map(fact);
      }
      const rows = await db
        .selectFrom('posting_journal')
        .select(FACT_COLUMNS)
        .where('customer_key', '=', customerKey)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('kind', '=', 'pontos')
        .where('state', '=', 'lançado')
        .orderBy('created_at')
        .limit(500)
        .execute();
      return rows.map(fact);
    },
  };
}

/** The figures a rule compares a posting with: a shift's count, an amount's quantile, the flagged. */
export function factFigures(store: Store) {
  const { db } = store;
  return {
    /** How many points a counter posted in [from, to). */
    async shiftCount(establishmentId: number, terminalId: string, from: number, to: number) {
      const r = await db
        .selectFrom('posting_journal')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('terminal_id', '=', terminalId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('establishment_id', '=', establishmentId)
        .where('kind', '=', 'pontos')
        .where('state', '=', 'lançado')
        .executeTakeFirstOrThrow();
      return num(r.n);
    },

    /** The amount at `quantile` of a store's posted points in [from, to); null under `min`. */
    async amountQuantile(
      establishmentId: number,
      from: number,
      to: number,
      quantile: number,
      min: number,
    ): Promise<number | null> {
      const base = db
        .selectFrom('posting_journal')
        .where('establishment_id', '=', establishmentId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('kind', '=', 'pontos')
        .where('state', '=', 'lançado');
      const count = num(
        (await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
      );
      if (count < min) return null;
      const at = Math.min(count - 1, Math.floor(count * quantile));
      const r = await base
        .select('amount')
        .orderBy('amount')
        .limit(1)
        .offset(at)
        .executeTakeFirst();
      return r === undefined ? null : num(r.amount);
    },

    /** The journal keys of a customer's alerts that were not dismissed. */
    async flaggedKeys(establishmentId: number, customerKey: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('vigilancia_alerts')
        .select(['posting_keys', 'rule'])
        .where('establishment_id', '=', establishmentId)
        .where('customer_key', '=', customerKey)
        .where('state', '!=', 'descartado')
        .execute();
      const keys = new Set<string>();
      for (const r of rows) {
        if (r.rule === 'premio_suspeito') continue;
        for (const k of JSON.parse(r.posting_keys) as string[]) keys.add(k);
      }
      return keys;
    },
  };
}
