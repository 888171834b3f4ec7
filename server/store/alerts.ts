/**
 * Vigilância's tables (migration 0014): each rule's settings per store (`vigilancia_rules`),
 * the alerts (`vigilancia_alerts`, one per establishment + `dedup` by a unique index, so the
 * same rule over the same evidence is recorded once however many processes evaluate it), the
 * nights re-evaluated (`vigilancia_nights`, claimed by an insert that only one replica wins),
 * and the indexed reads the rules make of the journal, the PDV's sales and the terminals.
 */
import type { Selectable } from 'kysely';
import type { VigilanciaAlertsTable } from './schema';
import type { Store } from './store';
import { factFigures, factReads, num } from './alerts-facts';
import { rulesAndNights } from './alerts-settings';

export type { PostingFact } from './alerts-facts';

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

export interface AlertFilter {
  /** One store's alerts, or these stores' (the chain's list). */
  establishmentId: number | readonly number[];
  rule: string | null;
  state: AlertState | null;
  terminalId: string | null;
  day: string | null;
  customerKey: string | null;
  limit: number;
  offset: number;
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

export function createAlertsStore(store: Store) {
  const { db } = store;
  return {
    ...rulesAndNights(store),
    ...factReads(store),
    ...factFigures(store),

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
      const ids =
        typeof f.establishmentId === 'number' ? [f.establishmentId] : [...f.establishmentId];
      if (ids.length === 0) return { rows: [], total: 0 };
      let q = db.selectFrom('vigilancia_alerts').where('establishment_id', 'in', ids);
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

    /** Open alerts by rule (of one store, or of these stores). */
    async openCounts(establishmentId: number | readonly number[]): Promise<Record<string, number>> {
      const ids = typeof establishmentId === 'number' ? [establishmentId] : [...establishmentId];
      if (ids.length === 0) return {};
      const rows = await db
        .selectFrom('vigilancia_alerts')
        .select(['rule', (eb) => eb.fn.countAll().as('n')])
        .where('establishment_id', 'in', ids)
        .where('state', '=', 'aberto')
        .groupBy('rule')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.rule, num(r.n)]));
    },
  };
}

export type AlertsStore = ReturnType<typeof createAlertsStore>;
