// The store's PDV at the counter: its sales pushed on the counter's event stream (the feed and
// the panel posting one are their own chunk, fetched once the counter is idle), the sale this
// customer posts, and the day's figures for the shift bar.
import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from '@/lib/idle';
import type { PdvCounter } from '@/features/points/components/pdv-counter';

const pdv = () => import('@/features/points/components/pdv-counter');
const PdvFeed = lazy(() => pdv().then((m) => ({ default: m.PdvFeed })));
/** The sale panel that posts the PDV's amount and basket for the customer found. */
export const PdvSalePanel = lazy(() => pdv().then((m) => ({ default: m.PdvSalePanel })));

/** `saleNo`: the counter's sale number (a new one for each customer). */
export function usePdvSale(saleNo: number) {
  const [idle, setIdle] = useState(false);
  const [counter, setCounter] = useState<PdvCounter | null>(null);
  /** The sale number for which the cashier chose to type another amount than the PDV's. */
  const [manual, setManual] = useState(-1);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return {
    /** The PDV's waiting sale this customer posts (none once another amount was chosen). */
    sale: manual === saleNo ? null : (counter?.current ?? null),
    /** The oldest waiting sale, whatever this customer chose (for the kiosk). */
    waiting: counter?.current,
    summary: counter?.summary,
    /** The cashier types another amount for this customer. */
    typeAnother: () => setManual(saleNo),
    feed: idle && (
      <Suspense fallback={null}>
        <PdvFeed onChange={setCounter} />
      </Suspense>
    ),
  };
}
