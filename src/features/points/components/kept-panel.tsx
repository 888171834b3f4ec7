import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { useHotkey } from '@/hooks/use-hotkey';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';
import { formatPointsLabel } from '@/lib/points';
import type { Kept } from '@/features/points/kept';
import { formatSaoPauloDateTime } from '@/lib/dates';

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
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useHotkey('Escape', onNext);
  useHotkey('F9', () => window.print());
  const when = formatSaoPauloDateTime(kept.at);

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

      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => window.print()} shortcut="F9">
          Imprimir comprovante
        </Button>
        <Button onClick={onNext} shortcut="Esc" size="lg" className="ml-auto">
          Próximo cliente
        </Button>
      </div>

      <div className="print-only print-slip" data-testid="slip">
        <p className="text-center font-bold">{establishment}</p>
        <p className="text-center">Comprovante de pontos</p>
        <p className="text-center font-bold">
          {kept.state === 'posted' ? 'VENDA GUARDADA — LANÇADA' : '*** VENDA GUARDADA ***'}
        </p>
        <p className="overflow-hidden whitespace-nowrap">--------------------------------</p>
        <p>Data: {when}</p>
        <p>Cliente: {maskPhone(kept.celular)}</p>
        <p>Valor da compra: {formatBRL(kept.valor)}</p>
        {kept.state === 'posted' && kept.saldo_atual !== null ? (
          <p>Saldo: {formatPointsLabel(kept.saldo_atual)}</p>
        ) : (
          <>
            <p>Serviço de fidelidade indisponível:</p>
            <p>os pontos serão lançados quando o serviço voltar. Saldo indisponível.</p>
          </>
        )}
        <p className="overflow-hidden whitespace-nowrap">--------------------------------</p>
        <p className="text-center">Obrigado pela preferência!</p>
      </div>
    </section>
  );
}
