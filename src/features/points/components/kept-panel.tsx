import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';
import { formatPointsLabel } from '@/lib/points';
import type { Kept } from '@/features/points/kept';
import { ResultActions, SaleSlip, useResultPanel } from '@/features/points/components/result-parts';

type Props = {
  kept: Kept;
  customerName: string | null;
  celular: string;
  establishment: string;
  onNext: () => void;
};

const TITLE: Record<Kept['state'], string> = {
  waiting: 'Guardado: será lançado quando o serviço voltar',
  posted: '✓ Lançado: a venda guardada chegou ao serviço',
  attention: 'Recusado na entrega: precisa de um gerente',
  discarded: 'Não lançado',
};

const TONE: Record<Kept['state'], string> = {
  waiting: 'border-amber-600 bg-amber-50 text-amber-950',
  posted: 'border-emerald-700 bg-emerald-50 text-emerald-950',
  attention: 'border-red-700 bg-red-50 text-red-950',
  discarded: 'border-slate-500 bg-slate-50 text-slate-950',
};

/**
 * A sale taken in contingency: kept by the app server, delivered when the service returns.
 * No balance is shown until the service answers (none is invented); the slip says so.
 */
export function KeptPanel({ kept, customerName, establishment, onNext }: Props) {
  const heading = useResultPanel(onNext);

  return (
    <section aria-labelledby="kept-title" className="flex flex-col gap-4" data-testid="kept-panel">
      <div role="status" className={`rounded-lg border-2 p-4 ${TONE[kept.state]}`}>
        <h2 id="kept-title" ref={heading} tabIndex={-1} className="text-xl font-bold">
          {TITLE[kept.state]}
        </h2>
        <p className="mt-1">
          Compra de <strong className="tabular">{formatBRL(kept.valor)}</strong> para{' '}
          <strong>{customerName ?? maskPhone(kept.celular)}</strong>.
        </p>
        {kept.state === 'waiting' && (
          <p className="mt-2">
            O serviço de fidelidade está indisponível. A venda ficou guardada neste servidor e será
            enviada sozinha, uma única vez, assim que ele voltar. Não lance de novo. O saldo do
            cliente não pode ser lido agora.
          </p>
        )}
        {kept.state === 'posted' && kept.saldo_atual !== null && (
          <p className="mt-2">
            {kept.pontos !== null && <>{formatPointsLabel(kept.pontos)} lançados. </>}
            Novo saldo: <strong className="tabular">{formatPointsLabel(kept.saldo_atual)}</strong>
          </p>
        )}
        {(kept.state === 'attention' || kept.state === 'discarded') && kept.reason && (
          <p className="mt-2">{kept.reason}</p>
        )}
        {kept.state === 'attention' && (
          <p className="mt-2">
            A venda não se perdeu: um gerente corrige e reenvia, ou descarta, em “Lançamentos do
            turno”.
          </p>
        )}
      </div>

      <ResultActions onNext={onNext} />

      <SaleSlip
        establishment={establishment}
        mark={kept.state === 'posted' ? 'VENDA GUARDADA — LANÇADA' : '*** VENDA GUARDADA ***'}
        at={kept.at}
        celular={kept.celular}
        valor={kept.valor}
      >
        {kept.state === 'posted' && kept.saldo_atual !== null ? (
          <p>Saldo: {formatPointsLabel(kept.saldo_atual)}</p>
        ) : (
          <>
            <p>Serviço de fidelidade indisponível:</p>
            <p>os pontos serão lançados quando o serviço voltar. Saldo indisponível.</p>
          </>
        )}
      </SaleSlip>
    </section>
  );
}
