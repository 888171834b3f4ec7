/**
 * A counter whose paired kiosk faces the customer (a customer display, set per counter with
 * `npm run terminal -- set ID --pdv-direto-quiosque KIOSK`): each new PDV sale that waits for
 * its customer is staged on that kiosk by itself, as F7 would, with PDV_SENHA_ATENDENTE. The
 * customer types the phone there while the cashier bags the purchase; the cashier presses
 * nothing. The kiosk's claim posts it through the journal (exactly once, as F7's).
 *
 * When it cannot be staged (no PDV password configured, the kiosk revoked, or busy with a sale
 * another counter or the kiosk itself staged) the sale simply waits at the counter. A newer
 * PDV sale replaces the same counter's unclaimed one on the kiosk: that one goes back to the
 * counter (the customer left without typing), where it waits until it expires.
 */
import { pdvDisplayOf } from '../../../store';
import type { PdvSaleRow } from '../../../store';
import { toKiosk } from './counter';
import type { PdvDeps } from './deps';
import { pdvSaleLife } from './pdv-sale';

/** Stages a new waiting sale on its counter's customer display, when one is set. */
export async function toDisplay(deps: PdvDeps, s: PdvSaleRow): Promise<PdvSaleRow> {
  if (s.state !== 'aguardando' || s.counter_id === null || deps.password === null) return s;
  const kioskId = await pdvDisplayOf(deps.store, s.counter_id);
  if (kioskId === null) return s;
  const done = await toKiosk(deps, s, {
    terminalId: s.counter_id,
    kioskId,
    senha: deps.password,
    trusted: true,
  });
  if (done.kind === 'staged') return done.sale;
  if (done.kind === 'busy') return done.sale;
  deps.logger?.info({ sale: s.id, kiosk: kioskId }, 'customer display busy: PDV sale waits');
  const moved = await pdvSaleLife.displayBusy(deps, s);
  return moved ?? s;
}
