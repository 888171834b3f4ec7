// The counter ("Caixa"): find or register the customer and post the purchase's points.
// This route only composes: the customer's state lives in the customers feature
// (useCounterCustomer), the posting's, the hand-over's and the store's PDV's in the points
// feature (usePosting, useHandOver, usePdvSale); neither feature imports the other, and the
// route hands each what it needs of the other.
import { Suspense, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Config as AppConfig } from '#contract/api/config';
import { useHotkey } from '@/hooks/use-hotkey';
import { whenIdle } from '@/lib/idle';
import { useLatest } from '@/hooks/use-latest';
import { useShownAfter } from '@/hooks/use-shown-after';
import type { LookupClassification } from '@/lib/lookup';
import type { LookupKey } from '@/api/keys';
import { CustomerSearch } from '@/features/customers/components/customer-search';
import { LookupNotices } from '@/features/customers/components/lookup-notices';
import { useCounterCustomer } from '@/features/customers/use-counter-customer';
import { ShiftBar } from '@/features/points/components/shift-bar';
import { ShiftProvider, useShift } from '@/features/points/shift';
import { postingBusy, usePosting } from '@/features/points/use-posting';
import { useHandOver } from '@/features/points/use-hand-over';
import { usePdvSale } from '@/features/points/use-pdv-sale';
import type { RereadTarget } from '@/features/points/posting-types';
import {
  ContingencyBanner,
  CustomerPanel,
  LedgerDialog,
  Loading,
  LookupFailed,
  NotFoundPanel,
  Panel,
  PendingRewards,
  prefetchCounterParts,
  ShiftDialog,
} from './counter-parts';
import { SaleColumn } from './caixa-sale-column';

/** The customer's one refresh after a posting: its code loads with the posting's. */
const refresh = (qc: QueryClient, target: RereadTarget) =>
  import('@/features/customers/api/refresh-customer').then((m) => m.refreshCustomer(qc, target));

/**
 * A search answers in tens of milliseconds: "Buscando cliente…" and the button's spinner show
 * only when it takes longer than this, so a quick answer replaces the field's state directly.
 */
const SEARCHING_SHOWN_AFTER_MS = 200;

export function CaixaRoute({ config }: { config: AppConfig }) {
  return (
    <ShiftProvider>
      <Counter config={config} />
    </ShiftProvider>
  );
}

function Counter({ config }: { config: AppConfig }) {
  const establishment = config.establishmentName ?? `Estabelecimento ${config.establishmentId}`;
  const qc = useQueryClient();
  const shift = useShift();
  const counter = useCounterCustomer();
  const { customer, lookup, typed, saleNo } = counter;
  const searchRef = useRef<HTMLInputElement>(null);
  const [ledgerOpen, setLedgerOpen] = useState(false);
  const posting = usePosting({
    reread: (target) => refresh(qc, target),
    onPasswordRejected: () => shift.close('rejected'),
    // A customer registered by the posting itself: show their panel from now on.
    onPosted: (p) => !customer && counter.open(p.id_cliente, false),
  });
  const { phase } = posting;
  const busyPosting = postingBusy(phase);
  const searching = useShownAfter(lookup.isFetching, SEARCHING_SHOWN_AFTER_MS);

  // Handing a reward over, and the store's PDV: each from its feature.
  const handOver = useHandOver(config, establishment, [counter.amountEl, searchRef]);
  const pdv = usePdvSale(saleNo);
  // A caixa has no rewards table: no link to it from the customer's panel.
  const rewardsLink = config.terminal?.navigation.premios !== false;
  // The counter's second chunk, fetched once it is idle, long before a phone is typed.
  useEffect(() => whenIdle(() => void prefetchCounterParts()), []);
  // "Próximo cliente" remounts the search field empty: it takes the focus. A search that itself
  // starts a new sale (after a posting) keeps the field as typed: it may have left by itself
  // at the last digit, while the cashier is still typing. While the shift is closed
  // the password dialog has it, and hands it to the search field as the shift opens; focusing
  // the field under it would only force a layout (on every load: the dialog opens with it).
  // Read, not a dependency: the dialog's `onOpened` places the focus when the shift opens.
  const shiftOpen = useLatest(shift.password !== null);
  const [cleared, setCleared] = useState(0);
  useEffect(() => {
    if (shiftOpen.current) searchRef.current?.focus();
  }, [cleared, shiftOpen]);
  useHotkey('F2', () => {
    searchRef.current?.focus();
    searchRef.current?.select();
  });
  useHotkey('F3', counter.register, counter.canRegister && !counter.registering);

  const search = (key: LookupKey, c: LookupClassification) => {
    // Searching is off while a posting is busy: locked here means posted or kept.
    if (posting.locked) posting.reset();
    counter.search(key, c, posting.locked);
  };
  const nextCustomer = () => {
    posting.reset();
    counter.next();
    setCleared((n) => n + 1);
    handOver.forget();
  };

  return (
    <main className="flex flex-1 flex-col">
      <h1 className="sr-only">Caixa</h1>
      {handOver.dialog}
      {/* The contingency state and the ledger dialog come with the counter's second chunk. */}
      <Suspense fallback={null}>
        <ContingencyBanner />
        {ledgerOpen && (
          <LedgerDialog
            manager={config.terminal?.role === 'gerente'}
            onClose={() => setLedgerOpen(false)}
          />
        )}
      </Suspense>
      <ShiftBar onOpenLedger={() => setLedgerOpen(true)} pdv={pdv.summary} />
      <div className="grid flex-1 grid-cols-1 content-start gap-4 p-4 md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] print:block">
        <div className="flex min-w-0 flex-col gap-4 print:hidden">
          {pdv.feed}
          <Panel>
            <CustomerSearch
              key={cleared}
              inputRef={searchRef}
              onSearch={search}
              onEdit={counter.edited}
              busy={searching}
              disabled={busyPosting}
            />
          </Panel>
          {searching && <LookupNotices />}
          {lookup.isError && !lookup.isFetching && (
            <Loading>
              <LookupFailed error={lookup.error} typed={typed} onRetry={lookup.refetch} />
            </Loading>
          )}
          {counter.notFound && typed && (
            <Loading>
              <NotFoundPanel
                typed={typed}
                registering={counter.registering}
                onRegister={counter.register}
              />
            </Loading>
          )}
          {customer && !lookup.isFetching && (
            <Loading>
              <CustomerPanel
                customer={customer}
                balanceFirst
                rewardsLink={rewardsLink}
                rewards={
                  <PendingRewards
                    customer={customer}
                    rewardsLink={rewardsLink}
                    canHandOver={handOver.available}
                    disabled={busyPosting}
                    onHandOver={handOver.open}
                  />
                }
              />
            </Loading>
          )}
        </div>
        <SaleColumn
          counter={counter}
          posting={posting}
          pdv={pdv}
          password={shift.password}
          establishment={establishment}
          handOver={handOver.forPosted}
          onNext={nextCustomer}
        />
      </div>
      {/* The password dialog comes with the counter's second chunk too (asked once a shift). */}
      <Suspense fallback={null}>
        <ShiftDialog
          onOpened={(after) =>
            (after === 'rejected' ? counter.amountEl.current : searchRef.current)?.focus()
          }
        />
      </Suspense>
    </main>
  );
}
