import { Button } from '@/components/ui/button';
import { useShift } from '@/features/points/shift';

/**
 * The counter's top bar: its keyboard shortcuts, the PDV's identification rate ("Pontuadas 14
 * de 20 vendas do PDV"), the shift's ledger, and the way to end it.
 */
export function ShiftBar({ onOpenLedger, pdv }: { onOpenLedger: () => void; pdv?: string | null }) {
  const shift = useShift();
  return (
    <div className="isolate flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-300 bg-white px-4 py-1.5 text-sm print:hidden">
      {/* Not on a phone-wide screen: it has no keyboard. */}
      <p className="text-slate-700 max-sm:hidden" aria-label="Atalhos do teclado">
        <Kbd>F2</Kbd> buscar · <Kbd>Enter</Kbd> confirmar · <Kbd>F3</Kbd> cadastrar · <Kbd>F4</Kbd>{' '}
        item · <Kbd>F8</Kbd> usar total dos itens · <Kbd>F9</Kbd> imprimir · <Kbd>Esc</Kbd> próximo
        cliente
      </p>
      <p className="ml-auto flex flex-wrap items-center justify-end gap-2">
        {pdv && <span className="whitespace-nowrap font-semibold text-slate-900">{pdv}</span>}
        <span className="text-slate-700">
          {shift.password ? '● Turno aberto' : '○ Turno fechado'}
        </span>
        <Button variant="secondary" size="sm" onClick={onOpenLedger}>
          Lançamentos do turno
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => shift.close()}
          disabled={!shift.password}
        >
          Encerrar turno
        </Button>
      </p>
    </div>
  );
}

function Kbd({ children }: { children: string }) {
  return (
    <kbd className="rounded border border-slate-400 bg-slate-100 px-1 font-sans text-xs font-semibold text-slate-900">
      {children}
    </kbd>
  );
}
