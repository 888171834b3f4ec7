/**
 * What the kiosk's domain functions work over: the store every replica shares, the kiosk's
 * calls to the service, the postings journal, the staged sales and the terminal limits. The
 * http layer builds it once (createKioskDeps) and hands it to each function.
 */
import type { Logger } from 'pino';
import type { LockoutPolicy, RateWindow, Store, StoreScope } from '../../../store';
import type { AuditTrail } from '../audit';
import type { PostingService } from '../journal/service';
import { kioskSealKeyFrom } from '../journal/sealed';
import { createStagedSales } from './sales';
import type { StagedSales } from './sales';
import type { KioskService } from './service';

export interface KioskLimits {
  /** The attendant-password lockout, per terminal. */
  password: LockoutPolicy;
  /** Phone lookups per kiosk terminal (balance, registration). */
  kioskLookup: Omit<RateWindow, 'key'>;
}

export interface KioskSetup {
  store: Store;
  service: KioskService;
  postings: Pick<PostingService, 'submit' | 'wait'>;
  limits: KioskLimits;
  /** HMAC key / APP_SECRET: seals a staged sale's attendant password in the store. */
  secret: string;
  logger?: Logger;
  /** Staged sales (tests pass their own). */
  sales?: StagedSales;
  /** Where a cancelled sale, leaving kiosk mode and a password lockout are recorded. */
  audit?: AuditTrail | null;
  /** The store whose kiosks a counter may send to (a chain's); absent: every kiosk. */
  scope?: StoreScope | null;
}

export interface KioskDeps extends Omit<KioskSetup, 'secret' | 'sales'> {
  sales: StagedSales;
}

export function createKioskDeps(setup: KioskSetup): KioskDeps {
  const { secret, sales, ...rest } = setup;
  return {
    ...rest,
    sales: sales ?? createStagedSales(setup.store, { sealKey: kioskSealKeyFrom(secret) }),
  };
}
