/** The app server's own store: the only way in (see store.ts for the portability rules). */
export { openStore } from './store';
export { migrationNames } from './migrations';
export type { Store } from './store';
export { ROLES } from './schema';
export type { Role } from './schema';
export * from './terminals';
export * from './limits';
export * from './journal';
export * from './kiosk-sales';
export * from './painel';
export * from './audit';
export * from './health';
export * from './pdv-sales';
export * from './pdv-display';
export * from './conferencia';
export * from './inspect';
export * from './stores';
export * from './alerts';
