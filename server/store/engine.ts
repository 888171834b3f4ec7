/**
 * The store's two engines, and what differs between them that the helpers must read (a unique
 * violation's error). A module of its own so that `store.ts` (which runs the migrations) and
 * `migrations.ts` (whose one dialect branch needs the engine) do not import each other.
 */
export type Engine = 'sqlite' | 'postgres';

/** A unique constraint refused a write, on either engine (PostgreSQL's 23505, SQLite's). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/.test(e?.message ?? '')
  );
}
