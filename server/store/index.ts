/** The app server's own store: the only way in (see store.ts for the portability rules). */
export { openStore } from './store';
export type { Engine, Store, StoreOptions } from './store';
export { ROLES } from './schema';
export type { Database, Role } from './schema';
export * from './terminals';
export * from './limits';
export * from './journal';
