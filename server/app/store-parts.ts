import type { Logger } from 'pino';
import { createTerminals } from './domain/access/terminals';
import { createAuditTrail, type AuditTrail } from './domain/audit';
import type { Store } from '../store';

/** What the app server's options say of its store (see AppServerOptions in app.ts). */
interface StorePartsOptions {
  store: Store;
  secret: string;
  establishmentId: number;
  chain?: { defaultId: number } | null;
  audit?: AuditTrail;
}

/**
 * This store's scope (a chain's store: its establishment, and for the default store the rows
 * naming none; null: one store, nothing scoped), its terminals and its audit trail.
 */
export function storeParts(options: StorePartsOptions, logger: Logger) {
  const chain = options.chain ?? null;
  /** A chain's store: what only this store's records are read and written under. */
  const scope =
    chain === null
      ? null
      : {
          establishmentId: options.establishmentId,
          orUnnamed: options.establishmentId === chain.defaultId,
        };
  const terminals = createTerminals({
    store: options.store,
    secret: options.secret,
    chain: chain === null ? null : { establishmentId: options.establishmentId, ...chain },
  });
  const audit =
    options.audit ??
    createAuditTrail({
      store: options.store,
      log: logger,
      ...(chain === null ? {} : { establishmentId: options.establishmentId, ...chain }),
    });
  return { scope, terminals, audit };
}
