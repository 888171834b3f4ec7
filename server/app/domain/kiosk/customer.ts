/**
 * A customer as the kiosk reads and registers them: the kiosk's view (view.ts) of the
 * service's answers, behind the kiosk's phone-lookup limit.
 */
import type * as z from 'zod/mini';
import type { KioskCustomer } from '#contract/api/kiosk';
import { readCustomer as readPosted } from '../journal/readings';
import { countLookup } from './access';
import type { KioskDeps } from './deps';
import { ServiceUnavailable } from './service';
import { kioskCustomer } from './view';

type View = z.input<typeof KioskCustomer>;

/**
 * The view and the points of the customer's newest credit (a posting's own points), and the
 * rewards waiting it was read with (the service's records).
 */
export async function readCustomer(
  deps: Pick<KioskDeps, 'service'>,
  celular: string,
): Promise<{ view: View; lastCredit: number | null; pending: unknown[] } | null> {
  const data = await deps.service.find(celular);
  if (data === null) return null;
  const id = typeof data.id_cliente === 'number' ? data.id_cliente : null;
  const pending = id === null ? [] : await deps.service.pendingRewards(id);
  return {
    view: kioskCustomer(data, pending),
    lastCredit: readPosted(data).ultimo_credito,
    pending,
  };
}

type Lookup<T> =
  | T
  | { kind: 'limited'; retryAfterMs: number }
  | { kind: 'unavailable' }
  | { kind: 'refused'; message: string | null };

/** `ServiceUnavailable` as an outcome; anything else is thrown on. */
async function orUnavailable<T>(run: () => Promise<T>): Promise<T | { kind: 'unavailable' }> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ServiceUnavailable) return { kind: 'unavailable' };
    throw err;
  }
}

/** A kiosk's balance lookup by phone: the customer's view, or null when not registered. */
export async function lookupBalance(
  deps: KioskDeps,
  terminalId: number,
  celular: string,
): Promise<Lookup<{ kind: 'found'; cliente: View | null }>> {
  const counted = await countLookup(deps, terminalId);
  if (!counted.allowed) return { kind: 'limited', retryAfterMs: counted.retryAfterMs };
  return orUnavailable(async () => ({
    kind: 'found' as const,
    cliente: (await readCustomer(deps, celular))?.view ?? null,
  }));
}

/** Registers the customer at a kiosk (consent given), then reads their view. */
export async function registerAtKiosk(
  deps: KioskDeps,
  terminalId: number,
  input: { celular: string; nome?: string | undefined },
): Promise<Lookup<{ kind: 'registered'; cliente: View | null }>> {
  const counted = await countLookup(deps, terminalId);
  if (!counted.allowed) return { kind: 'limited', retryAfterMs: counted.retryAfterMs };
  return orUnavailable(async () => {
    const done = await deps.service.register({
      celular: input.celular,
      ...(input.nome ? { nome: input.nome } : {}),
    });
    if (!done.ok) {
      if (done.status !== 422) return { kind: 'unavailable' as const };
      const message = done.body?.message;
      return { kind: 'refused' as const, message: message == null ? null : String(message) };
    }
    logConsent(deps, terminalId);
    const cliente = (await readCustomer(deps, input.celular))?.view ?? null;
    return { kind: 'registered' as const, cliente };
  });
}

/** The record of a registration made with the customer's consent at a kiosk (LGPD). */
export function logConsent(deps: Pick<KioskDeps, 'logger'>, terminalId: number): void {
  deps.logger?.info(
    { terminal: terminalId, consent: 'lgpd-kiosk' },
    'kiosk registration with consent',
  );
}
