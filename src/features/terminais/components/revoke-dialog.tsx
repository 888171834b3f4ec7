import { useEffect, useRef } from 'react';
import type { TerminalItem } from '#contract/api/terminais';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { openModal } from '@/lib/modal';
import { ROLE_LABELS } from '../labels';

/**
 * Asks before a terminal is revoked: Enter confirms (the focus is on "Revogar"), Esc or
 * "Cancelar" closes it with nothing done. Stays open while the request is on its way and
 * shows the server's refusal there.
 */
export function RevokeDialog({
  terminal,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  terminal: TerminalItem;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d === null) return;
    openModal(d);
    return () => {
      if (d.open) d.close();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby="revoke-title"
      aria-describedby="revoke-text"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-full max-w-md rounded-lg p-0 shadow-2xl backdrop:bg-slate-900/70"
    >
      <form
        method="dialog"
        className="flex flex-col gap-4 p-6"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) onConfirm();
        }}
      >
        <h2 id="revoke-title" className="text-xl font-bold">
          Revogar o terminal {terminal.nome}?
        </h2>
        <p id="revoke-text" className="text-slate-800">
          {ROLE_LABELS[terminal.papel]} nº {terminal.id}. A próxima requisição dele será recusada e
          o navegador volta à tela de registro. Para usá-lo de novo, crie um novo terminal.
        </p>
        {error !== null && (
          <Alert tone="error" title="Não foi possível revogar.">
            <p>{error}</p>
          </Alert>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancelar
          </Button>
          <Button type="submit" variant="danger" data-autofocus busy={busy} disabled={busy}>
            Revogar
          </Button>
        </div>
      </form>
    </dialog>
  );
}
