import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useLatest } from '@/hooks/use-latest';
import { TextField } from '@/components/ui/field';
import { openModal, releasePaintedPage } from '@/lib/modal';
import { useShift } from '@/features/points/shift';

const reasons = {
  idle: 'O turno foi encerrado após 15 minutos sem uso. A venda em andamento foi mantida.',
  rejected:
    'O serviço recusou a senha do atendente. A venda foi mantida: digite a senha correta e lance de novo.',
} as const;

/**
 * Asks for the attendant password whenever the shift is closed. The counter stays mounted
 * underneath, so nothing typed there is lost while this is open.
 */
export function ShiftDialog({
  onOpened,
}: {
  onOpened?: (after: 'idle' | 'rejected' | null) => void;
}) {
  const { password, reason, open } = useShift();
  const dialog = useRef<HTMLDialogElement>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const isOpen = password === null;
  // Why the dialog was last opened, for whoever places the focus when it closes.
  const openedFor = useRef(reason);

  const onOpenedRef = useLatest(onOpened);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (isOpen) openedFor.current = reason;
    if (isOpen && !d.matches(':modal')) {
      // No focus to give back on close: Chromium hands a text field its focus back without
      // a caret (typing goes nowhere); `onOpened` places the focus instead.
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      openModal(d); // on the password field (painted open by the server: opened again)
    }
    if (!isOpen && d.open) {
      d.close();
      releasePaintedPage(d); // painted open by the server for a shift that was open
      onOpenedRef.current?.(openedFor.current);
    }
  }, [isOpen, reason, onOpenedRef]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim() === '') {
      setError('Digite a senha do atendente.');
      return;
    }
    open(value);
    setValue('');
    setError(undefined);
  };

  return (
    <dialog
      ref={dialog}
      // In the page the app server paints, the dialog shows (it cannot open modal there).
      open={import.meta.env.SSR || undefined}
      aria-labelledby="shift-title"
      onCancel={(e) => e.preventDefault()}
      className="m-auto w-full max-w-md rounded-lg p-0 shadow-2xl backdrop:bg-slate-900/70"
    >
      <form onSubmit={submit} className="flex flex-col gap-4 p-6" noValidate>
        <h2 id="shift-title" className="text-xl font-bold">
          {reason ? 'Digite a senha do atendente' : 'Abrir turno'}
        </h2>
        {reason ? (
          <p
            role="alert"
            className="rounded-md border-l-4 border-amber-600 bg-amber-50 px-3 py-2 text-amber-950"
          >
            {reasons[reason]}
          </p>
        ) : (
          <p className="text-slate-700">
            A senha fica só na memória deste navegador até “Encerrar turno” ou 15 minutos sem uso.
          </p>
        )}
        <TextField
          label="Senha do atendente"
          type="password"
          autoComplete="off"
          data-autofocus
          value={value}
          error={error}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" size="lg" shortcut="Enter">
          {reason ? 'Continuar' : 'Abrir turno'}
        </Button>
      </form>
    </dialog>
  );
}
