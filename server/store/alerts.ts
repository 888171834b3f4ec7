/**
 * Vigilância's tables (migration 0014): each rule's settings per store (`vigilancia_rules`),
 * the alerts (`vigilancia_alerts`, one per establishment + `dedup` by a unique index, so the
 * same rule over the same evidence is recorded once however many processes evaluate it), the
 * nights re-evaluated (`vigilancia_nights`, claimed by an insert that only one replica wins),
 * and the indexed reads the rules make of the journal, the PDV's sales and the terminals.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Selectable } from 'kysely';
import type { VigilanciaAlertsTable } from './schema';
import type { Store } from './store';

export type AlertRow = Selectable<VigilanciaAlertsTable>;
export type AlertState = 'aberto' | 'reconhecido' | 'descartado';

export interface NewAlert {
  establishmentId: number;
  rule: string;
  dedup: string;
  terminalId: string | null;
  customerKey: string | null;
  day: string;
  amount: number | null;
  postingKeys: string[];
  evidence: Record<string, unknown>;
  summary: string;
}

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

export interface AlertFilter {
  establishmentId: number;
  rule: string | null;
  state: AlertState | null;
  terminalId: string | null;
  day: string | null;
  customerKey: string | null;
  limit: number;
  offset: number;
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

const num = (v: unknown): number => Number(v);

function fact(r: PostingFact): PostingFact {
  return { ...r, amount: num(r.amount), created_at: num(r.created_at) };
}

function alertRow(r: AlertRow): AlertRow {
  return {
    ...r,
    id: num(r.id),
    amount: r.amount === null ? null : num(r.amount),
    decided_at: r.decided_at === null ? null : num(r.decided_at),
    created_at: num(r.created_at),
    updated_at: num(r.updated_at),
  };
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

export function createAlertsStore(store: Store) {
  const { db, sqlite } = store;
  let reads: ReturnType<typeof preparedReads> | null = null;
  const withReads = <T>(fn: (r: ReturnType<typeof preparedReads>) => T): Promise<T> =>
    sqlite!.run((conn) => fn((reads ??= preparedReads(conn))));
  return {
    async ruleSettings(establishmentId: number) {
      return db
        .selectFrom('vigilancia_rules')
        .selectAll()
        .where('establishment_id', '=', establishmentId)
        .execute();
    },

    async saveRule(
      establishmentId: number,
      rule: string,
      enabled: boolean,
      params: Record<string, number>,
      by: string | null,
    ): Promise<void> {
      const values = {
        establishment_id: establishmentId,
        rule,
        enabled: enabled ? 1 : 0,
        params: JSON.stringify(params),
        updated_at: store.now(),
        updated_by: by,
      };
      await db
        .insertInto('vigilancia_rules')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['establishment_id', 'rule']).doUpdateSet({
            enabled: values.enabled,
            params: values.params,
            updated_at: values.updated_at,
            updated_by: values.updated_by,
          }),
        )
        .execute();
    },

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

    /**
     * Records an alert once: a new one is inserted; the same dedup again only brings an open
     * alert's evidence up to date (a third posting of the day joins the day's alert).
     */
    async record(a: NewAlert): Promise<{ created: boolean; id: number }> {
      const now = store.now();
      const values = {
        establishment_id: a.establishmentId,
        rule: a.rule,
        dedup: a.dedup,
        terminal_id: a.terminalId,
        customer_key: a.customerKey,
        day: a.day,
        amount: a.amount,
        posting_keys: JSON.stringify(a.postingKeys),
        evidence: JSON.stringify(a.evidence),
        summary: a.summary,
        state: 'aberto',
        note: null,
        decided_by: null,
        decided_at: null,
        created_at: now,
        updated_at: now,
      };
      const inserted = await db
        .insertInto('vigilancia_alerts')
        .values(values)
        .onConflict((oc) => oc.columns(['establishment_id', 'dedup']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted !== undefined) return { created: true, id: num(inserted.id) };
      const updated = await db
        .updateTable('vigilancia_alerts')
        .set({
          posting_keys: values.posting_keys,
          evidence: values.evidence,
          summary: values.summary,
          updated_at: now,
        })
        .where('establishment_id', '=', a.establishmentId)
        .where('dedup', '=', a.dedup)
        .where('state', '=', 'aberto')
        .where('posting_keys', '!=', values.posting_keys)
        .returning('id')
        .executeTakeFirst();
      if (updated !== undefined) return { created: false, id: num(updated.id) };
      const row = await db
        .selectFrom('vigilancia_alerts')
        .select('id')
        .where('establishment_id', '=', a.establishmentId)
        .where('dedup', '=', a.dedup)
        .executeTakeFirstOrThrow();
      return { created: false, id: num(row.id) };
    },

    async list(f: AlertFilter): Promise<{ rows: AlertRow[]; total: number }> {
      let q = db.selectFrom('vigilancia_alerts').where('establishment_id', '=', f.establishmentId);
      if (f.rule !== null) q = q.where('rule', '=', f.rule);
      if (f.state !== null) q = q.where('state', '=', f.state);
      if (f.terminalId !== null) q = q.where('terminal_id', '=', f.terminalId);
      if (f.day !== null) q = q.where('day', '=', f.day);
      if (f.customerKey !== null) q = q.where('customer_key', '=', f.customerKey);
      const [rows, total] = await Promise.all([
        q
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(f.limit)
          .offset(f.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(alertRow), total: num(total.n) };
    },

    async get(establishmentId: number, id: number): Promise<AlertRow | null> {
      const r = await db
        .selectFrom('vigilancia_alerts')
        .selectAll()
        .where('establishment_id', '=', establishmentId)
        .where('id', '=', id)
        .executeTakeFirst();
      return r === undefined ? null : alertRow(r);
    },

    /** An open alert acknowledged or dismissed, once (null: not open any more). */
    async decide(
      establishmentId: number,
      id: number,
      state: 'reconhecido' | 'descartado',
      note: string,
      by: string | null,
    ): Promise<AlertRow | null> {
      const now = store.now();
      const r = await db
        .updateTable('vigilancia_alerts')
        .set({ state, note, decided_by: by, decided_at: now, updated_at: now })
        .where('establishment_id', '=', establishmentId)
        .where('id', '=', id)
        .where('state', '=', 'aberto')
        .returningAll()
        .executeTakeFirst();
      return r === undefined ? null : alertRow(r);
    },

    /** Open alerts by rule. */
    async openCounts(establishmentId: number): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('vigilancia_alerts')
        .select(['rule', (eb) => eb.fn.countAll().as('n')])
        .where('establishment_id', '=', establishmentId)
        .where('state', '=', 'aberto')
        .groupBy('rule')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.rule, num(r.n)]));
    },

    /** The keys of a store's posted points (and rewards handed over) in [from, to). */
    async settledKeys(establishmentId: number, from: number, to: number): Promise<string[]> {
      const rows = await db
        .selectFrom('posting_journal')
        .select('key')
        .where('establishment_id', '=', establishmentId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('state', '=', 'lançado')
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.key);
    },

    /** Claims a night's re-evaluation: true for the one process that inserts it. */
    async claimNight(establishmentId: number, day: string): Promise<boolean> {
      const r = await db
        .insertInto('vigilancia_nights')
        .values({
          establishment_id: establishmentId,
          day,
          started_at: store.now(),
          finished_at: null,
        })
        .onConflict((oc) => oc.columns(['establishment_id', 'day']).doNothing())
        .returning('day')
        .executeTakeFirst();
      return r !== undefined;
    },

    async finishNight(establishmentId: number, day: string): Promise<void> {
      await db
        .updateTable('vigilancia_nights')
        .set({ finished_at: store.now() })
        .where('establishment_id', '=', establishmentId)
        .where('day', '=', day)
        .execute();
    },
  };
}

export type AlertsStore = ReturnType<typeof createAlertsStore>;
