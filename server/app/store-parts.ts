/**
 * One store's parts over the shared store (app.ts composes them; app/chain.ts reads a store's
 * dashboard with them for the chain's roll-up): its scope, its terminals, its audit trail and
 * its dashboard's dependencies.
 */
import type { Logger } from 'pino';
import type { PainelPeriod, PainelWire } from '#contract/api/painel';
import type { AppServerOptions } from './options';
import { createTerminals } from './domain/access/terminals';
import { createAuditTrail } from './domain/audit';
import { painel } from './domain/painel';
import type { PainelDeps } from './domain/painel';
import { clientOf } from './upstream/client';

/**
 * This store's scope (a chain's store: its establishment, and for the default store the rows
 * naming none; null: one store, nothing scoped) and its terminals.
 */
function scopeAndTerminals(options: AppServerOptions) {
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
    chain:
      chain === null
        ? null
        : { establishmentId: options.establishmentId, defaultId: chain.defaultId },
  });
  return { scope, terminals };
}

/** The store's scope, its terminals and its audit trail. */
export function storeParts(options: AppServerOptions, logger: Logger) {
  const { scope, terminals } = scopeAndTerminals(options);
  const chain = options.chain ?? null;
  const audit =
    options.audit ??
    createAuditTrail({
      store: options.store,
      log: logger,
      ...(chain === null
        ? {}
        : { establishmentId: options.establishmentId, defaultId: chain.defaultId }),
    });
  return { scope, terminals, audit };
}

/** The dashboard's dependencies of this store (its client reads the service with its token). */
export function painelDeps(
  options: AppServerOptions,
  parts: Pick<ReturnType<typeof scopeAndTerminals>, 'scope' | 'terminals'>,
): PainelDeps {
  return {
    store: options.store,
    client: clientOf(options),
    establishmentId: options.establishmentId,
    scope: parts.scope,
    terminalNames: () => parts.terminals.names(),
    serviceDown: () => options.circuit?.isOpen() ?? false,
  };
}

/** This store's dashboard of a period, as its app's `GET /api/painel` answers it. */
export function storePainel(options: AppServerOptions): (p: PainelPeriod) => Promise<PainelWire> {
  const deps = painelDeps(options, scopeAndTerminals(options));
  return (period) => painel(deps, period);
}
