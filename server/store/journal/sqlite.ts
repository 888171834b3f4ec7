/**
 * The statements a posting runs on SQLite before it is sent, when it settles and when a
 * waiter reads it: prepared once and run synchronously on the connection (see SqliteAccess),
 * the same statements and conditions as their Kysely versions (./slots.ts, ./entries.ts, which
 * PostgreSQL runs; the journal's tests run both engines). Kysely compiles and prepares each
 * statement on each call, through a few promise turns per statement: a posting's journaling
 * cost ~1 ms more that way, before anything could leave for the service.
 */
import type { Insertable, Selectable } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { PostingJournalTable } from '../schema';
import type { SqliteAccess } from '../store';
import { Rollback, fromRow, lookupOf, startedRow, toColumns, type LookupColumns } from './rows';
import {
  IN_FLIGHT,
  type EntryPatch,
  type JournalStore,
  type PostingState,
  type StartResult,
} from './types';

type HotPath = Pick<JournalStore, 'get' | 'update' | 'slotState' | 'start' | 'finish'>;

export function sqliteHotPath(sqlite: SqliteAccess): HotPath {
  const { conn } = sqlite;
  const slotStatement = slotStatements(conn);
  const patchRow = rowPatcher();
  const st = {
    get: conn.prepare<[string], Selectable<PostingJournalTable>>(
      'select * from posting_journal where key = ?',
    ),
    takeSlot: conn.prepare(
      `insert into posting_slots (establishment_id, customer_key, key, taken_at) values (?, ?, ?, ?)
       on conflict (establishment_id, customer_key) do nothing`,
    ),
    nextTurn: conn.prepare(
      `update posting_turns set turn = turn + 1
       where establishment_id = ? and customer_key = ? and turn = ?`,
    ),
    firstTurn: conn.prepare(
      `insert into posting_turns (establishment_id, customer_key, turn) values (?, ?, 1)
       on conflict (establishment_id, customer_key) do nothing`,
    ),
    releaseSlot: conn.prepare('delete from posting_slots where key = ?'),
  };

  /** Prepared on first use: its columns are those of `startedRow`. */
  let insertStarted: BetterSqlite3.Statement<
    [Insertable<PostingJournalTable>],
    Selectable<PostingJournalTable>
  > | null = null;
  function insertStartedRow(row: Insertable<PostingJournalTable>) {
    if (insertStarted === null) {
      const columns = Object.keys(row);
      insertStarted = conn.prepare(
        `insert into posting_journal (${columns.join(', ')})
         values (${columns.map((c) => `@${c}`).join(', ')})
         on conflict (key) do nothing returning *`,
      );
    }
    return insertStarted.get(row);
  }

  const getRow = (key: string) => {
    const row = st.get.get(key);
    return row === undefined ? null : fromRow(row);
  };

  return {
    get: (key) => sqlite.run(() => getRow(key)),

    update: (key, owner, patch, now, states) =>
      sqlite.run((c) => patchRow(c, key, owner, patch, now, states)),

    slotState: (establishmentId, customerKey, options) =>
      sqlite.run(() => {
        const queued = options?.queued === true;
        const terminalId = options?.lookup;
        const row = slotStatement(queued, terminalId !== undefined).get({
          establishmentId,
          customerKey,
          ...(terminalId === undefined ? {} : { terminalId }),
        })!;
        return {
          held: row.slot !== null,
          ...(row.slot !== null ? { holder: row.slot } : {}),
          turn: row.turn === null ? 0 : Number(row.turn),
          ...(queued ? { queued: Boolean(Number(row.queued)) } : {}),
          ...(terminalId === undefined
            ? {}
            : { lookup: lookupOf(row, establishmentId, terminalId, customerKey) }),
        };
      }),

    async start(e, turn) {
      const result = await sqlite
        .run(
          (): StartResult => {
            const inserted = insertStartedRow(startedRow(e));
            if (inserted === undefined) throw new Rollback({ kind: 'moved' });
            const where = [e.establishmentId, e.customerKey] as const;
            const took =
              st.takeSlot.run(...where, e.key, e.sentAt).changes === 1 &&
              (turn > 0 ? st.nextTurn.run(...where, turn) : st.firstTurn.run(...where)).changes ===
                1;
            if (!took) throw new Rollback({ kind: 'moved' });
            return { kind: 'started', entry: fromRow(inserted) };
          },
          { transaction: true },
        )
        .catch((err: unknown) => {
          if (err instanceof Rollback) return err.result;
          throw err;
        });
      if (result.kind === 'started') return result;
      // Rolled back: the key may exist (then it is that sale), else the slot moved on.
      const existing = await sqlite.run(() => getRow(e.key));
      return existing === null ? { kind: 'moved' } : { kind: 'exists', existing };
    },

    finish: (key, owner, patch, now, options) =>
      sqlite.run(
        (c) => {
          const ok = patchRow(c, key, owner, patch, now);
          st.releaseSlot.run(key);
          return ok;
        },
        { transaction: true, durable: options?.durable },
      ),
  };
}

interface SlotRow extends LookupColumns {
  slot: string | null;
  turn: number | bigint | null;
  queued: number;
}

type SlotParams = { establishmentId: number; customerKey: string; terminalId?: string };

/** The slot's statement of each shape (with the kept-sales check, with a lookup), prepared once. */
function slotStatements(conn: BetterSqlite3.Database) {
  const inFlight = IN_FLIGHT.map((s) => `'${s}'`).join(', ');
  const slotSql = (queued: boolean, lookup: boolean) =>
    `select
       (select key from posting_slots
         where establishment_id = @establishmentId and customer_key = @customerKey) as slot,
       (select turn from posting_turns
         where establishment_id = @establishmentId and customer_key = @customerKey) as turn,
       ${
         queued
           ? `exists (select 1 from posting_journal
                where establishment_id = @establishmentId and customer_key = @customerKey
                  and (state = 'aguardando envio'
                    or (state in (${inFlight}) and settled_at is null and body is not null)))`
           : '0'
       } as queued${['turn', 'reading', 'read_at']
         .map((column) =>
           lookup
             ? `,
       (select ${column} from customer_lookups
         where establishment_id = @establishmentId and terminal_id = @terminalId
           and customer_key = @customerKey) as lookup_${column}`
             : `, null as lookup_${column}`,
         )
         .join('')}`;
  const statements = new Map<string, BetterSqlite3.Statement<[SlotParams], SlotRow>>();
  return (queued: boolean, lookup: boolean) => {
    const shape = `${queued}:${lookup}`;
    let stmt = statements.get(shape);
    if (stmt === undefined) {
      stmt = conn.prepare<[SlotParams], SlotRow>(slotSql(queued, lookup));
      statements.set(shape, stmt);
    }
    return stmt;
  };
}

/** `update … set <the patch's columns> where key and owner [and state in …]`, by shape. */
function rowPatcher() {
  const updates = new Map<string, BetterSqlite3.Statement>();
  return function patchRow(
    c: BetterSqlite3.Database,
    key: string,
    owner: string,
    patch: EntryPatch,
    now: number,
    states: readonly PostingState[] = [],
  ): boolean {
    const set: Record<string, unknown> = { ...toColumns(patch), updated_at: now };
    const columns = Object.keys(set);
    const shape = `${columns.join(',')}|${states.length}`;
    let stmt = updates.get(shape);
    if (stmt === undefined) {
      const inStates = states.map((_, i) => `@state${i}`).join(', ');
      stmt = c.prepare(
        `update posting_journal set ${columns.map((k) => `${k} = @${k}`).join(', ')}
         where key = @key and owner = @owner${states.length > 0 ? ` and state in (${inStates})` : ''}`,
      );
      updates.set(shape, stmt);
    }
    const params: Record<string, unknown> = { ...set, key, owner };
    states.forEach((s, i) => (params[`state${i}`] = s));
    return stmt.run(params).changes === 1;
  };
}
