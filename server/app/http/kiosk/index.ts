/**
 * The kiosk's narrow endpoints (`/api/quiosque/…`), one Hono sub-app. A kiosk (role
 * `quiosque`, or a `gerente` trying the screen) never reaches the service's own routes: it gets
 * only what its screen shows (customer.ts). The counter (caixa, gerente) stages sales for a
 * kiosk, follows and cancels them (counter.ts). Updates reach both as Server-Sent Events
 * (events.ts). Requests and answers are the contract's (contract/api/kiosk.ts); the work
 * is the domain's (domain/kiosk/).
 */
import { Hono } from 'hono';
import { createKioskDeps } from '../../domain/kiosk/deps';
import type { KioskDeps, KioskSetup } from '../../domain/kiosk/deps';
import { startSweeper } from '../../domain/kiosk/sales';
import type { createAccess } from '../access';
import { counterRoutes } from './counter';
import { customerRoutes } from './customer';
import { eventRoutes } from './events';
import type { EventStreamOptions } from './events';
import type { Vars } from './respond';

const KIOSK_PREFIX = '/api/quiosque';

export interface KioskRoutesOptions extends Omit<KioskSetup, 'limits'>, EventStreamOptions {
  access: ReturnType<typeof createAccess>;
}

/** The kiosk's sub-app, its staged sales, and the sweeper that expires them (started). */
export function kioskRoutes(options: KioskRoutesOptions) {
  const { access, heartbeatMs, maxStreamsPerTerminal, onDrain, streamOpened, ...setup } = options;
  const deps = createKioskDeps({ ...setup, limits: access.limits });
  const stopSweeper = startSweeper(deps);
  const routes = new Hono<Vars>()
    .use('*', access.sameOriginJson, access.requireTerminal, access.rateLimit)
    .route('/', customerRoutes(deps))
    .route('/', counterRoutes(deps))
    .route('/', eventRoutes(deps, { heartbeatMs, maxStreamsPerTerminal, onDrain, streamOpened }));
  return { routes, deps, stopSweeper };
}

/** Mounts the kiosk's sub-app at /api/quiosque; answers its deps (the integration stages sales). */
export function mountKioskRoutes(app: Hono<Vars>, options: KioskRoutesOptions): KioskDeps {
  const { routes, deps } = kioskRoutes(options);
  app.route(KIOSK_PREFIX, routes);
  return deps;
}
