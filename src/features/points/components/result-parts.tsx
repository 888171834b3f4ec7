import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { useHotkey } from '@/hooks/use-hotkey';
import { formatSaoPauloDateTime } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';

/**
 * What a sale's result panel (posted or kept) does on arrival: its heading (the ref returned)
 * takes focus; Esc calls the next customer, F9 prints the slip.
 */
export function useResultPanel(onNext: () => void) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useHotkey('Escape', onNext);
  useHotkey('F9', () => window.print());
  return heading;
}

/** "Imprimir comprovante" (F9) and "Próximo cliente" (Esc) under a sale's result. */
export function ResultActions({ onNext }: { onNext: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => window.print()} shortcut="F9">
        Imprimir comprovante
      </Button>
      <Button onClick={onNext} shortcut="Esc" size="lg" className="ml-auto">
        Próximo cliente
      </Button>
    </div>
  );
}

const RULE = <p className="overflow-hidden whitespace-nowrap">--------------------------------</p>;

/**
 * The printed slip of a sale (shown in print only): the establishment, the sale (when, masked
 * phone, amount) and the lines the result adds (`children`) between two rules. `mark` is a line
 * under the title (a kept sale says so).
 */
export function SaleSlip(props: {
  establishment: string;
  mark?: string;
  at: Date;
  celular: string;
  valor: number;
  children: ReactNode;
}) {
  return (
    <div className="print-only print-slip" data-testid="slip">
      <p className="text-center font-bold">{props.establishment}</p>
      <p className="text-center">Comprovante de pontos</p>
      {props.mark && <p className="text-center font-bold">{props.mark}</p>}
      {RULE}
      <p>Data: {formatSaoPauloDateTime(props.at)}</p>
      <p>Cliente: {maskPhone(props.celular)}</p>
      <p>Valor da compra: {formatBRL(props.valor)}</p>
      {props.children}
      {RULE}
      <p className="text-center">Obrigado pela preferência!</p>
    </div>
  );
}
