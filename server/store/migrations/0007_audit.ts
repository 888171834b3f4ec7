/** Migration `0007_audit`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndexes } from './kit';

export const migration0007 = defineMigration(async (db, { engine, autoId }) => {
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
  await createIndexes(db, 'audit_log', {
    audit_log_at: ['at', 'id'],
    audit_log_action: ['action', 'at'],
    audit_log_terminal: ['terminal_id', 'at'],
  });
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
});
