import { createPortal } from 'react-dom';
import { formatSaoPauloDateTime } from '@/lib/dates';
import { maskPhone } from '@/lib/phone';
import type { HandOverTarget } from '@/features/points/pending-hand-over';

/** Marks the page while a hand-over's slip prints: only it prints (see index.css). */
export function printHandOverSlip(): void {
  const root = document.documentElement;
  root.dataset.print = 'entrega';
  try {
    window.print();
  } finally {
    delete root.dataset.print;
  }
}

/**
 * The 80 mm slip of a reward handed over, in the posting slip's format. Rendered into the
 * page's body, outside the dialog, so it prints from the paper's top left like the posting's.
 */
export function HandOverSlip({
  target,
  id_premio_cliente,
  at,
  establishment,
  terminal,
}: {
  target: HandOverTarget;
  id_premio_cliente: number | null;
  at: Date;
  establishment: string;
  terminal: string | null;
}) {
  const { customer, reward } = target;
  return createPortal(
    <div className="print-only print-slip handover-slip" data-testid="handover-slip">
      <p className="text-center font-bold">{establishment}</p>
      <p className="text-center">Comprovante de entrega</p>
      <p className="text-center font-bold">PRÊMIO ENTREGUE</p>
      <p className="overflow-hidden whitespace-nowrap">--------------------------------</p>
      <p>Data: {formatSaoPauloDateTime(at)}</p>
      {terminal && <p>Terminal: {terminal}</p>}
      {customer.nome && <p>Cliente: {customer.nome}</p>}
      <p>Celular: {maskPhone(customer.celular)}</p>
      <p>Prêmio: {reward.nome}</p>
      {id_premio_cliente !== null && <p>Código do prêmio: {id_premio_cliente}</p>}
      <p className="overflow-hidden whitespace-nowrap">--------------------------------</p>
      <p className="text-center">Obrigado pela preferência!</p>
    </div>,
    document.body,
  );
}
