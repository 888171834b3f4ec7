/**
 * The store's migrations, in order, for both engines. One schema builder call per change;
 * the only dialect branch is the auto-increment key. Append new migrations at the end with
 * the next number: never edit one that has landed (deployed databases already ran it).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sql } from 'kysely';
import type { Engine } from './engine';

/** `db` is untyped on purpose: a migration sees the schema as it was then, not as now. */
type AnyDb = Kysely<unknown>;

export function migrations(engine: Engine): Record<string, Migration> {
  const autoId = (table: ReturnType<AnyDb['schema']['createTable']>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  return {
    '0001_terminals': {
      async up(db: AnyDb) {
        await autoId(db.schema.createTable('terminals'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('enrolled_at', 'bigint')
          .addColumn('credential_nonce', 'text')
          .addColumn('revoked_at', 'bigint')
          .addColumn('last_seen_at', 'bigint')
          .addCheckConstraint('terminals_role', sql`role in ('caixa', 'gerente', 'quiosque')`)
          .execute();
        await db.schema
          .createTable('enrollment_codes')
          .addColumn('code_hash', 'text', (c) => c.primaryKey())
          .addColumn('terminal_id', 'integer', (c) =>
            c.notNull().references('terminals.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
        await db.schema
          .createIndex('enrollment_codes_terminal')
          .on('enrollment_codes')
          .column('terminal_id')
          .execute();
        await db.schema
          .createTable('rate_counters')
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('window_start', 'bigint', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('rate_counters_pk', ['key', 'window_start'])
          .execute();
        await db.schema
          .createIndex('rate_counters_window')
          .on('rate_counters')
          .column('window_start')
          .execute();
        await db.schema
          .createTable('lockouts')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('failures', 'integer', (c) => c.notNull())
          .addColumn('window_start', 'bigint', (c) => c.notNull())
          .addColumn('strikes', 'integer', (c) => c.notNull())
          .addColumn('locked_until', 'bigint')
          .execute();
      },
    },
    '0002_postings_journal': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('posting_journal')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('terminal_id', 'text')
          .addColumn('request_id', 'text')
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('customer_key', 'text', (c) => c.notNull())
          .addColumn('customer_name', 'text')
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('reason', 'text')
          .addColumn('answer_status', 'integer')
          .addColumn('answer_body', 'text')
          .addColumn('snapshot', 'text')
          .addColumn('reading', 'text')
          .addColumn('points', 'integer')
          .addColumn('lost_kind', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('sent_at', 'bigint')
          .addColumn('ended_at', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('settled_at', 'bigint')
          .addColumn('owner', 'text')
          .addColumn('lease_until', 'bigint', (c) => c.notNull())
          .addColumn('next_check_at', 'bigint')
          .addCheckConstraint(
            'posting_journal_state',
            sql`state in ('enviando', 'lançado', 'recusado', 'verificando', 'desconhecido')`,
          )
          .execute();
        await db.schema
          .createIndex('posting_journal_ledger')
          .on('posting_journal')
          .columns(['establishment_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('posting_journal_state')
          .on('posting_journal')
          .columns(['state', 'lease_until'])
          .execute();
        await db.schema
          .createTable('posting_slots')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('customer_key', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('taken_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('posting_slots_pk', ['establishment_id', 'customer_key'])
          .execute();
        await db.schema
          .createIndex('posting_slots_key')
          .on('posting_slots')
          .column('key')
          .execute();
      },
    },
    '0003_posting_turns': {
      async up(db: AnyDb) {
        // How many postings took each customer's slot: a posting that read the customer
        // before taking the slot knows no other posting of ours came in between.
        await db.schema
          .createTable('posting_turns')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('customer_key', 'text', (c) => c.notNull())
          .addColumn('turn', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('posting_turns_pk', ['establishment_id', 'customer_key'])
          .execute();
      },
    },
    '0004_contingency': {
      async up(db: AnyDb) {
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
          await db.schema
            .createIndex('posting_journal_ledger')
            .on('posting_journal')
            .columns(['establishment_id', 'created_at'])
            .execute();
          await db.schema
            .createIndex('posting_journal_state')
            .on('posting_journal')
            .columns(['state', 'lease_until'])
            .execute();
        }
        // The waiting queue (oldest first) and a customer's open sales.
        await db.schema
          .createIndex('posting_journal_queue')
          .on('posting_journal')
          .columns(['establishment_id', 'state', 'created_at'])
          .execute();
        await db.schema
          .createIndex('posting_journal_customer')
          .on('posting_journal')
          .columns(['establishment_id', 'customer_key', 'state'])
          .execute();
      },
    },
    '0005_kiosk_sales': {
      async up(db: AnyDb) {
        const states = sql`state in ('aguardando', 'lançando', 'lançado', 'recusado', 'desconhecido', 'cancelado', 'expirado')`;
        await db.schema
          .createTable('kiosk_sales')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kiosk_id', 'integer', (c) =>
            c.notNull().references('terminals.id').onDelete('cascade'),
          )
          .addColumn('counter_id', 'integer', (c) =>
            c.references('terminals.id').onDelete('cascade'),
          )
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('items', 'text')
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('message', 'text')
          .addColumn('points', 'integer')
          .addColumn('customer', 'text')
          .addColumn('secret', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('settled_at', 'bigint')
          .addCheckConstraint('kiosk_sales_state', states)
          .execute();
        // One sale waiting for a customer per kiosk, whichever replica stages it.
        await db.schema
          .createIndex('kiosk_sales_waiting')
          .on('kiosk_sales')
          .column('kiosk_id')
          .unique()
          .where(sql.ref('state'), '=', 'aguardando')
          .execute();
        await db.schema
          .createIndex('kiosk_sales_kiosk')
          .on('kiosk_sales')
          .columns(['kiosk_id', 'state'])
          .execute();
        await db.schema
          .createIndex('kiosk_sales_expiry')
          .on('kiosk_sales')
          .columns(['state', 'expires_at'])
          .execute();
      },
    },
    '0006_reward_handover': {
      async up(db: AnyDb) {
        // A journal entry is a posting ('pontos') or a reward handed over ('premio', with the
        // reward and the customer's records of it read before sending, as JSON).
        await db.schema
          .alterTable('posting_journal')
          .addColumn('kind', 'text', (c) => c.notNull().defaultTo('pontos'))
          .execute();
        await db.schema.alterTable('posting_journal').addColumn('reward', 'text').execute();
      },
    },
    '0007_audit': {
      async up(db: AnyDb) {
        // The audit trail: append-only. No foreign key to terminals (a cascade would be a
        // delete); the terminal's name is copied as it was. `audit_purge` holds one row whose
        // `cutoff` is set only inside the retention purge's own transaction (audit.ts): the
        // triggers refuse every update and every delete but of rows older than it.
        await autoId(db.schema.createTable('audit_log'))
          .addColumn('at', 'bigint', (c) => c.notNull())
          .addColumn('terminal_id', 'integer')
          .addColumn('terminal_name', 'text')
          .addColumn('role', 'text')
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('details', 'text', (c) => c.notNull())
          .addColumn('request_id', 'text')
          .execute();
        await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
        await db.schema
          .createIndex('audit_log_action')
          .on('audit_log')
          .columns(['action', 'at'])
          .execute();
        await db.schema
          .createIndex('audit_log_terminal')
          .on('audit_log')
          .columns(['terminal_id', 'at'])
          .execute();
        await db.schema
          .createTable('audit_purge')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('cutoff', 'bigint')
          .execute();
        await sql`insert into audit_purge (id, cutoff) values (1, null)`.execute(db);
        const refusal = 'audit_log is append-only';
        if (engine === 'postgres') {
          await sql`create function audit_log_guard() returns trigger language plpgsql as $$
            begin
              if tg_op = 'DELETE' and old.at < coalesce((select cutoff from audit_purge where id = 1), -1) then
                return old;
              end if;
              raise exception '${sql.raw(refusal)}' using errcode = 'P0001';
            end $$`.execute(db);
          await sql`create trigger audit_log_append_only before update or delete on audit_log
            for each row execute function audit_log_guard()`.execute(db);
          await sql`create function audit_log_no_truncate() returns trigger language plpgsql as $$
            begin raise exception '${sql.raw(refusal)}' using errcode = 'P0001'; end $$`.execute(
            db,
          );
          await sql`create trigger audit_log_no_truncate before truncate on audit_log
            for each statement execute function audit_log_no_truncate()`.execute(db);
        } else {
          await sql`create trigger audit_log_no_update before update on audit_log
            begin select raise(abort, '${sql.raw(refusal)}'); end`.execute(db);
          await sql`create trigger audit_log_no_delete before delete on audit_log
            when not (old.at < coalesce((select cutoff from audit_purge where id = 1), -1))
            begin select raise(abort, '${sql.raw(refusal)}'); end`.execute(db);
        }
      },
    },
    '0008_reconciliation': {
      async up(db: AnyDb) {
        // The conferência: a run re-reads the day's customers from the service and matches
        // the journal's postings with their history. One run of a day at a time, and one
        // nightly run of a day, whichever replica gets there first (partial unique indexes);
        // each customer's progress is a row, so a run resumes where it stopped.
        await autoId(db.schema.createTable('reconciliation_runs'))
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('offset_min', 'integer', (c) => c.notNull())
          .addColumn('origin', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('owner', 'text')
          .addColumn('lease_until', 'bigint', (c) => c.notNull())
          .addColumn('started_at', 'bigint', (c) => c.notNull())
          .addColumn('finished_at', 'bigint')
          .addColumn('reported_at', 'bigint')
          .addColumn('customers', 'integer', (c) => c.notNull())
          .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('reads', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('postings', 'integer', (c) => c.notNull())
          .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('findings', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('summary', 'text')
          .addCheckConstraint(
            'reconciliation_runs_state',
            sql`state in ('em andamento', 'concluída')`,
          )
          .addCheckConstraint('reconciliation_runs_origin', sql`origin in ('noite', 'gerente')`)
          .execute();
        await db.schema
          .createIndex('reconciliation_runs_running')
          .on('reconciliation_runs')
          .columns(['establishment_id', 'day'])
          .unique()
          .where(sql.ref('state'), '=', 'em andamento')
          .execute();
        await db.schema
          .createIndex('reconciliation_runs_nightly')
          .on('reconciliation_runs')
          .columns(['establishment_id', 'day'])
          .unique()
          .where(sql.ref('origin'), '=', 'noite')
          .execute();
        await db.schema
          .createIndex('reconciliation_runs_day')
          .on('reconciliation_runs')
          .columns(['establishment_id', 'day', 'id'])
          .execute();
        await db.schema
          .createIndex('reconciliation_runs_lease')
          .on('reconciliation_runs')
          .columns(['state', 'lease_until'])
          .execute();
        await db.schema
          .createTable('reconciliation_customers')
          .addColumn('run_id', 'integer', (c) =>
            c.notNull().references('reconciliation_runs.id').onDelete('cascade'),
          )
          .addColumn('customer_key', 'text', (c) => c.notNull())
          .addColumn('id_cliente', 'bigint')
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('findings', 'text')
          .addColumn('read_at', 'bigint')
          .addPrimaryKeyConstraint('reconciliation_customers_pk', ['run_id', 'customer_key'])
          .execute();
      },
    },
    '0009_integration': {
      async up(db: AnyDb) {
        // The store's PDV as a terminal of role `integracao`, paired with the counter terminal
        // it rings up for (`counter_id`); its bearer token's SHA-256 is the credential nonce.
        const roles = sql.raw("role in ('caixa', 'gerente', 'quiosque', 'integracao')");
        if (engine === 'postgres') {
          await sql`alter table terminals drop constraint terminals_role`.execute(db);
          await sql`alter table terminals add constraint terminals_role check (${roles})`.execute(
            db,
          );
        } else {
          await widenSqliteRoles(db, "'quiosque')", "'quiosque', 'integracao')", 'terminals_v9');
        }
        await db.schema
          .alterTable('terminals')
          .addColumn('counter_id', 'integer', (c) => c.references('terminals.id'))
          .execute();
        const states = sql.raw(
          "state in ('aguardando', 'no quiosque', 'lançando', 'lançada', 'recusada', " +
            "'cancelada', 'não identificada')",
        );
        await db.schema
          .createTable('pdv_sales')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('terminal_id', 'integer', (c) =>
            c.notNull().references('terminals.id').onDelete('cascade'),
          )
          .addColumn('counter_id', 'integer', (c) =>
            c.references('terminals.id').onDelete('set null'),
          )
          .addColumn('sale_id', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('items', 'text')
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('posting_key', 'text')
          .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('points', 'integer')
          .addColumn('customer', 'text')
          .addColumn('rewards', 'text')
          .addColumn('message', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('settled_at', 'bigint')
          .addCheckConstraint('pdv_sales_state', states)
          .execute();
        // id_venda is the idempotency key per integration terminal.
        await db.schema
          .createIndex('pdv_sales_sale')
          .on('pdv_sales')
          .columns(['terminal_id', 'sale_id'])
          .unique()
          .execute();
        await db.schema
          .createIndex('pdv_sales_counter')
          .on('pdv_sales')
          .columns(['counter_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('pdv_sales_state')
          .on('pdv_sales')
          .columns(['state', 'expires_at'])
          .execute();
        await db.schema
          .createIndex('pdv_sales_posting')
          .on('pdv_sales')
          .column('posting_key')
          .execute();
      },
    },
    '0010_dashboard_days': {
      async up(db: AnyDb) {
        // The dashboard's figures of past local days, computed once (see painel.ts); a day
        // is computed again when one of its entries changed after it (updated_at).
        await db.schema
          .createTable('dashboard_days')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('offset_ms', 'bigint', (c) => c.notNull())
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('computed_at', 'bigint', (c) => c.notNull())
          .addColumn('groups', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('dashboard_days_pk', ['establishment_id', 'offset_ms', 'day'])
          .execute();
        await db.schema
          .createIndex('posting_journal_updated')
          .on('posting_journal')
          .columns(['establishment_id', 'updated_at'])
          .execute();
      },
    },
    '0011_pdv_display': {
      async up(db: AnyDb) {
        // A counter terminal whose paired kiosk faces the customer: every PDV sale for that
        // counter is staged there by itself (null: the cashier passes one with F7).
        await db.schema
          .alterTable('terminals')
          .addColumn('pdv_kiosk_id', 'integer', (c) => c.references('terminals.id'))
          .execute();
        // The dashboard's identification rate: a period's PDV sales grouped by day, counter
        // and state, read from this index alone (covering).
        await db.schema
          .createIndex('pdv_sales_created')
          .on('pdv_sales')
          .columns(['created_at', 'counter_id', 'state'])
          .execute();
      },
    },
    '0012_reconciliation_trigger': {
      async up(db: AnyDb) {
        // What started a nightly run: 'on_time' (at CONFERENCIA_HORA), 'startup' (the first
        // check of a server started past that hour), 'late' (a later check, catching up).
        // Null: a manager's run, or a nightly one recorded before this column.
        await db.schema
          .alterTable('reconciliation_runs')
          .addColumn('nightly_trigger', 'text')
          .execute();
      },
    },
    '0013_customer_lookups': {
      async up(db: AnyDb) {
        // Each counter terminal's latest lookup of a customer (through the proxy), with the
        // customer's posting turn when it was read: the journal's snapshot when that terminal
        // posts for that customer moments later with nothing posted since (see readings.ts).
        await db.schema
          .createTable('customer_lookups')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('terminal_id', 'text', (c) => c.notNull())
          .addColumn('customer_key', 'text', (c) => c.notNull())
          .addColumn('turn', 'bigint', (c) => c.notNull())
          .addColumn('reading', 'text', (c) => c.notNull())
          .addColumn('read_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('customer_lookups_pk', ['establishment_id', 'terminal_id'])
          .execute();
      },
    },
    '0014_vigilancia': {
      async up(db: AnyDb) {
        // Vigilância: each rule's settings per store, the alerts (one per rule + evidence, by
        // the unique dedup), the nights re-evaluated; and the journal's indexes its rules read
        // by (one customer across stores, one counter's shift).
        await db.schema
          .createTable('vigilancia_rules')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('rule', 'text', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull())
          .addColumn('params', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_by', 'text')
          .addPrimaryKeyConstraint('vigilancia_rules_pk', ['establishment_id', 'rule'])
          .execute();
        await autoId(db.schema.createTable('vigilancia_alerts'))
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('rule', 'text', (c) => c.notNull())
          .addColumn('dedup', 'text', (c) => c.notNull())
          .addColumn('terminal_id', 'text')
          .addColumn('customer_key', 'text')
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('amount', 'bigint')
          .addColumn('posting_keys', 'text', (c) => c.notNull())
          .addColumn('evidence', 'text', (c) => c.notNull())
          .addColumn('summary', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('note', 'text')
          .addColumn('decided_by', 'text')
          .addColumn('decided_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addCheckConstraint(
            'vigilancia_alerts_state',
            sql`state in ('aberto', 'reconhecido', 'descartado')`,
          )
          .execute();
        await db.schema
          .createIndex('vigilancia_alerts_dedup')
          .on('vigilancia_alerts')
          .columns(['establishment_id', 'dedup'])
          .unique()
          .execute();
        await db.schema
          .createIndex('vigilancia_alerts_list')
          .on('vigilancia_alerts')
          .columns(['establishment_id', 'state', 'created_at'])
          .execute();
        await db.schema
          .createIndex('vigilancia_alerts_customer')
          .on('vigilancia_alerts')
          .columns(['establishment_id', 'customer_key'])
          .execute();
        await db.schema
          .createTable('vigilancia_nights')
          .addColumn('establishment_id', 'integer', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('started_at', 'bigint', (c) => c.notNull())
          .addColumn('finished_at', 'bigint')
          .addPrimaryKeyConstraint('vigilancia_nights_pk', ['establishment_id', 'day'])
          .execute();
        await db.schema
          .createIndex('posting_journal_customer_time')
          .on('posting_journal')
          .columns(['customer_key', 'created_at'])
          .execute();
        await db.schema
          .createIndex('posting_journal_terminal_time')
          .on('posting_journal')
          .columns(['terminal_id', 'created_at'])
          .execute();
      },
    },
    '0015_chain_stores': {
      async up(db: AnyDb) {
        // A chain's stores from one deployment. The role `rede` (the chain's manager: reads
        // every store, posts nothing); each terminal and audit entry names its store's
        // establishment (null: rows from before, the configured default store's); the stores
        // besides the default one, each with its access-token sealed under APP_SECRET.
        if (engine === 'postgres') {
          const roles = sql.raw("role in ('caixa', 'gerente', 'quiosque', 'integracao', 'rede')");
          await sql`alter table terminals drop constraint terminals_role`.execute(db);
          await sql`alter table terminals add constraint terminals_role check (${roles})`.execute(
            db,
          );
        } else {
          await widenSqliteRoles(
            db,
            "'quiosque', 'integracao')",
            "'quiosque', 'integracao', 'rede')",
            'terminals_v15',
          );
        }
        await db.schema.alterTable('terminals').addColumn('establishment_id', 'integer').execute();
        await db.schema
          .createIndex('terminals_establishment')
          .on('terminals')
          .column('establishment_id')
          .execute();
        await db.schema.alterTable('audit_log').addColumn('establishment_id', 'integer').execute();
        await db.schema
          .createTable('stores')
          .addColumn('establishment_id', 'integer', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('token_sealed', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
  };
}

/**
 * SQLite cannot change a CHECK constraint: `terminals` is rebuilt from its own definition with
 * the role list widened (whatever columns earlier migrations gave it), with foreign keys off
 * so that dropping the old table cascades nothing into the tables that reference it (their
 * references name `terminals` and find the new table once it is renamed). One transaction;
 * `foreign_key_check` must find nothing before it commits.
 */
async function widenSqliteRoles(
  db: AnyDb,
  from: string,
  to: string,
  scratch: string,
): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const table = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'table' and name = 'terminals'`.execute(db);
      const indexes = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'index' and tbl_name = 'terminals' and sql is not null`.execute(db);
      const old = table.rows[0]!.sql;
      const list = `role in ('caixa', 'gerente', `;
      const widened = old.replace(list + from, list + to);
      if (widened === old) throw new Error('terminals_role: unexpected definition');
      const create = widened.replace(/^create table "?terminals"?/i, `create table ${scratch}`);
      await sql.raw(create).execute(db);
      await sql.raw(`insert into ${scratch} select * from terminals`).execute(db);
      await sql`drop table terminals`.execute(db);
      await sql.raw(`alter table ${scratch} rename to terminals`).execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error('terminals: foreign keys broken by the rebuild');
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** The migrations' names in order (the same on both engines): the schema versions this code knows. */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite'));
}
