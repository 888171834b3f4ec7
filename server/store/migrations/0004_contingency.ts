/** Migration `0004_contingency`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndexes } from './kit';

export const migration0004 = defineMigration(async (db, { engine }) => {
  // Sales kept while the service is down: two states waiting for someone (the deliverer,
  // a manager) and one final (a manager discarded it); the sale's body without the
  // password, the password sealed (erased once settled), delivery attempts.
  const states = sql.raw(
    "state in ('enviando', 'lançado', 'recusado', 'verificando', 'desconhecido', " +
      "'aguardando envio', 'precisa de atenção', 'descartado')",
  );
  if (engine === 'postgres') {
    await sql`alter table posting_journal drop constraint posting_journal_state`.execute(db);
    await sql`alter table posting_journal add constraint posting_journal_state check (${states})`.execute(
      db,
    );
    await db.schema.alterTable('posting_journal').addColumn('body', 'text').execute();
    await db.schema.alterTable('posting_journal').addColumn('secret', 'text').execute();
    await db.schema
      .alterTable('posting_journal')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  } else {
    // SQLite cannot change a CHECK constraint: the table is rebuilt with the new one.
    await sql`create table posting_journal_v4 (
            key text primary key,
            establishment_id integer not null,
            terminal_id text,
            request_id text,
            fingerprint text not null,
            customer_key text not null,
            customer_name text,
            amount bigint not null,
            state text not null,
            reason text,
            answer_status integer,
            answer_body text,
            snapshot text,
            reading text,
            points integer,
            lost_kind text,
            created_at bigint not null,
            sent_at bigint,
            ended_at bigint,
            updated_at bigint not null,
            settled_at bigint,
            owner text,
            lease_until bigint not null,
            next_check_at bigint,
            body text,
            secret text,
            attempts integer not null default 0,
            constraint posting_journal_state check (${states})
          )`.execute(db);
    await sql`insert into posting_journal_v4 (key, establishment_id, terminal_id, request_id,
            fingerprint, customer_key, customer_name, amount, state, reason, answer_status,
            answer_body, snapshot, reading, points, lost_kind, created_at, sent_at, ended_at,
            updated_at, settled_at, owner, lease_until, next_check_at)
            select key, establishment_id, terminal_id, request_id, fingerprint, customer_key,
            customer_name, amount, state, reason, answer_status, answer_body, snapshot, reading,
            points, lost_kind, created_at, sent_at, ended_at, updated_at, settled_at, owner,
            lease_until, next_check_at from posting_journal`.execute(db);
    await sql`drop table posting_journal`.execute(db);
    await sql`alter table posting_journal_v4 rename to posting_journal`.execute(db);
    await createIndexes(db, 'posting_journal', {
      posting_journal_ledger: ['establishment_id', 'created_at'],
      posting_journal_state: ['state', 'lease_until'],
    });
  }
  // The waiting queue (oldest first) and a customer's open sales.
  await createIndexes(db, 'posting_journal', {
    posting_journal_queue: ['establishment_id', 'state', 'created_at'],
    posting_journal_customer: ['establishment_id', 'customer_key', 'state'],
  });
});
