/**
 * The counter terminals' latest lookups of a customer (table `customer_lookups`, migration
 * 0013), and the points of a posting learned from a later read of its customer.
 *
 * A lookup is kept with the customer's posting turn (`posting_turns`) read before it was sent,
 * its slot free: when the same terminal posts for that customer and the turn is still the
 * same, no posting of ours (nor a hand-over) changed the customer in between, and the journal
 * takes that reading as its snapshot instead of reading again (domain/journal/lookups.ts).
 * One row per terminal: a terminal serves one customer at a time.
 */
import type { Selectable } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { CustomerLookupsTable, PostingJournalTable } from './schema';
import type { Store } from './store';

/** The customer as read just before sending, by a counter's lookup, or when re-checking. */
export interface CustomerReading {
  exists: boolean;
  id_cliente: number | null;
  nome: string | null;
  compras: number;
  ultima_compra: string | null;
  saldo: number;
  saldo_carencia: number;
  /** Points of the newest credit in the history (the posting's own, once it landed). */
  ultimo_credito: number | null;
  /** When the read was sent (epoch ms); absent in readings journaled by earlier versions. */
  readAt?: number;
}

/** A terminal's lookup of a customer, as kept. */
export interface CustomerLookup {
  establishmentId: number;
  terminalId: string;
  /** The customer's phone (E.164): the journal's slot. */
  customerKey: string;
  /** The customer's posting turn when the read was sent (its slot free then). */
  turn: number;
  reading: CustomerReading;
  /** When the read was sent. */
  readAt: number;
}

/** What a later read of its customer tells of a posting whose points were not known. */
export interface PointsPatch {
  points: number;
  reading: CustomerReading;
  customerName: string | null;
}

/** `E`: the journal's entry (journal.ts), which these queries answer. */
export interface LookupStore<E> {
  /** Keeps the terminal's latest lookup (replacing its previous one), not flushed on its own. */
  saveLookup(lookup: CustomerLookup): Promise<void>;
  /**
   * The customer's newest posting settled `lançado` at or after `since` whose points are not
   * known yet (its answer did not tell them), or null.
   */
  unpointed(establishmentId: number, customerKey: string, since: number): Promise<E | null>;
  /** Sets a posted entry's points and reading, unless they are known already. */
  completePoints(key: string, patch: PointsPatch, now: number): Promise<boolean>;
}

export function lookupFromRow(r: Selectable<CustomerLookupsTable>): CustomerLookup {
  return {
    establishmentId: r.establishment_id,
    terminalId: r.terminal_id,
    customerKey: r.customer_key,
    turn: Number(r.turn),
    reading: JSON.parse(r.reading) as CustomerReading,
    readAt: Number(r.read_at),
  };
}

function lookupRow(l: CustomerLookup): Selectable<CustomerLookupsTable> {
  return {
    establishment_id: l.establishmentId,
    terminal_id: l.terminalId,
    customer_key: l.customerKey,
    turn: l.turn,
    reading: JSON.stringify(l.reading),
    read_at: l.readAt,
  };
}

/** The queries; `toEntry` reads a journal row (journal.ts's own, passed to avoid a cycle). */
export function lookupQueries<E>(
  store: Store,
  toEntry: (r: Selectable<PostingJournalTable>) => E,
): LookupStore<E> {
  const db = store.db;
  let upsert: BetterSqlite3.Statement<[Selectable<CustomerLookupsTable>]> | null = null;
  let unpointedRow: BetterSqlite3.Statement<
    [number, string, number],
    Selectable<PostingJournalTable>
  > | null = null;
  let pointsRow: BetterSqlite3.Statement<[Record<string, unknown>]> | null = null;
  return {
    async saveLookup(lookup) {
      const row = lookupRow(lookup);
      const sqlite = store.sqlite;
      if (sqlite !== null) {
        // A prepared statement: every phone lookup at the counter keeps one.
        upsert ??= sqlite.conn.prepare(
          `insert into customer_lookups
             (establishment_id, terminal_id, customer_key, turn, reading, read_at)
           values (@establishment_id, @terminal_id, @customer_key, @turn, @reading, @read_at)
           on conflict (establishment_id, terminal_id) do update set
             customer_key = excluded.customer_key, turn = excluded.turn,
             reading = excluded.reading, read_at = excluded.read_at`,
        );
        const statement = upsert;
        await sqlite.run(() => statement.run(row), { transaction: true, durable: false });
        return;
      }
      await store.transaction(
        (trx) =>
          trx
            .insertInto('customer_lookups')
            .values(row)
            .onConflict((oc) =>
              oc.columns(['establishment_id', 'terminal_id']).doUpdateSet((eb) => ({
                customer_key: eb.ref('excluded.customer_key'),
                turn: eb.ref('excluded.turn'),
                reading: eb.ref('excluded.reading'),
                read_at: eb.ref('excluded.read_at'),
              })),
            )
            .execute(),
        { durable: false },
      );
    },

    async unpointed(establishmentId, customerKey, since) {
      const sqlite = store.sqlite;
      if (sqlite !== null) {
        // Prepared too: every kept lookup of a customer with postings asks it.
        unpointedRow ??= sqlite.conn.prepare(
          `select * from posting_journal
           where establishment_id = ? and customer_key = ? and state = 'lançado'
             and kind = 'pontos' and points is null and snapshot is not null and settled_at >= ?
           order by settled_at desc limit 1`,
        );
        const statement = unpointedRow;
        const found = await sqlite.run(() => statement.get(establishmentId, customerKey, since));
        return found === undefined ? null : toEntry(found);
      }
      const row = await db
        .selectFrom('posting_journal')
        .selectAll()
        .where('establishment_id', '=', establishmentId)
        .where('customer_key', '=', customerKey)
        .where('state', '=', 'lançado')
        .where('kind', '=', 'pontos')
        .where('points', 'is', null)
        .where('snapshot', 'is not', null)
        .where('settled_at', '>=', since)
        .orderBy('settled_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? null : toEntry(row);
    },

    async completePoints(key, patch, now) {
      const sqlite = store.sqlite;
      if (sqlite !== null) {
        // Prepared as well: most counter postings end here, a few seconds after their answer.
        pointsRow ??= sqlite.conn.prepare(
          `update posting_journal set points = @points, reading = @reading,
             customer_name = coalesce(@customer_name, customer_name), updated_at = @updated_at
           where key = @key and state = 'lançado' and points is null`,
        );
        const statement = pointsRow;
        const changes = await sqlite.run(
          () =>
            statement.run({
              key,
              points: patch.points,
              reading: JSON.stringify(patch.reading),
              customer_name: patch.customerName,
              updated_at: now,
            }).changes,
          { transaction: true, durable: false },
        );
        return changes === 1;
      }
      const res = await store.transaction(
        (trx) =>
          trx
            .updateTable('posting_journal')
            .set({
              points: patch.points,
              reading: JSON.stringify(patch.reading),
              ...(patch.customerName === null ? {} : { customer_name: patch.customerName }),
              updated_at: now,
            })
            .where('key', '=', key)
            .where('state', '=', 'lançado')
            .where('points', 'is', null)
            .executeTakeFirst(),
        { durable: false },
      );
      return Number(res.numUpdatedRows) === 1;
    },
  };
}
