/**
 * The store's two engines. A module of its own so that `store.ts` (which runs the migrations)
 * and `migrations.ts` (whose one dialect branch needs the engine) do not import each other.
 */
export type Engine = 'sqlite' | 'postgres';
