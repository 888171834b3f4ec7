// The counter's right-hand column: the sale's side. What it shows follows the posting and the
// customer: a posting's status when its answer was lost; the posted (or kept) sale; the
// registration form; the store's PDV sale; the purchase form; or the placeholder.
import { Suspense } from 'react';
import type { useCounterCustomer } from '@/features/customers/use-counter-customer';
import { SalePlaceholder } from '@/features/points/components/sale-placeholder';
import type { usePosting } from '@/features/points/use-posting';
import type { useHandOver } from '@/features/points/use-hand-over';
import { PdvSalePanel, type usePdvSale } from '@/features/points/use-pdv-sale';
import {
  Panel,
  PostedPanel,
  PostingStatus,
  RegisterForm,
  SalePanel,
  SendToKiosk,
} from './counter-parts';

/** The phases PostingStatus shows (it renders nothing for the others). */
const STATUS_PHASES: ReadonlySet<string> = new Set([
  'verifying',
  'unknown',
  'verify-failed',
  'not-posted',
]);

export function SaleColumn({
  counter,
  posting,
  pdv,
  password,
  establishment,
  handOver,
  onNext,
}: {
  counter: ReturnType<typeof useCounterCustomer>;
  posting: ReturnType<typeof usePosting>;
  pdv: ReturnType<typeof usePdvSale>;
  /** The shift's attendant password (null while the shift is closed). */
  password: string | null;
  establishment: string;
  /** "Entregar" for the rewards a posting won (undefined: not on this counter). */
  handOver: ReturnType<typeof useHandOver>['forPosted'];
  /** "Próximo cliente". */
  onNext: () => void;
}) {
  const { customer, typed, saleNo } = counter;
  const { phase } = posting;
  const posted = phase.name === 'posted' ? phase.posted : null;
  const kept = phase.name === 'kept' ? phase.kept : null;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {/* Only a posting whose answer was lost gives it anything to show: until then its
          chunk is not needed for the first paint. */}
      {STATUS_PHASES.has(phase.name) && (
        <Suspense fallback={null}>
          <PostingStatus phase={phase} onVerify={() => void posting.verify()} />
        </Suspense>
      )}
      {posted || kept ? (
        <Panel lazy>
          <PostedPanel
            posted={posted}
            kept={kept}
            customerName={customer?.nome ?? null}
            celular={customer?.celular ?? typed?.celular ?? ''}
            establishment={establishment}
            onNext={onNext}
            handOver={handOver}
          />
        </Panel>
      ) : counter.registering && counter.canRegister ? (
        <Panel lazy>
          <RegisterForm
            initial={counter.prefill}
            onRegistered={counter.showRegistered}
            onOpenExisting={(id: number) => counter.open(id)}
            onCancel={counter.cancelRegister}
          />
        </Panel>
      ) : pdv.sale && (customer || ((counter.canRegister || counter.canKeep) && typed?.celular)) ? (
        <Panel lazy>
          <PdvSalePanel
            sale={pdv.sale}
            customer={customer ?? null}
            celular={typed?.celular ?? null}
            password={password}
            posting={posting}
            focusRef={counter.amountRef}
            onManual={pdv.typeAnother}
          />
        </Panel>
      ) : customer || counter.canRegister || counter.canKeep ? (
        <Panel lazy>
          <SalePanel
            key={`${saleNo}:${customer ? customer.id_cliente : 'new'}`}
            customer={customer ?? null}
            newCustomer={counter.prefill}
            unavailable={counter.canKeep}
            password={password}
            posting={posting}
            amountRef={counter.amountRef}
          />
        </Panel>
      ) : (
        <>
          <SalePlaceholder />
          <Suspense fallback={null}>
            <SendToKiosk password={password} pdv={pdv.waiting} />
          </Suspense>
        </>
      )}
    </div>
  );
}
