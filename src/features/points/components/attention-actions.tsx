// What a manager does with a kept sale the service refused at delivery ("precisa de atenção"),
// in the row of "Lançamentos do turno": resend it with the corrected attendant password, or
// discard it. The server decides once (a second manager gets "outro gerente já decidiu").
import {
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { isApiError } from '@/api/errors';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatBRL } from '@/lib/money';
import { decideKept, type LedgerEntry } from '@/features/points/api/ledger';

type Mode = 'idle' | 'resend' | 'discard';

const messageOf = (e: unknown): string =>
  e instanceof Error ? e.message : 'Erro desconhecido. Tente novamente.';

type Props = {
  entry: LedgerEntry;
  /**
   * The decision was taken, or another manager's was (`message` says which): the ledger
   * reloads and says it; the focus goes to the list.
   */
  onDone: (message: string) => void;
};

export function AttentionActions({ entry, onDone }: Props) {
  const [mode, setMode] = useState<Mode>('idle');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resendButton = useRef<HTMLButtonElement>(null);
  const discardButton = useRef<HTMLButtonElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const confirmDiscard = useRef<HTMLButtonElement>(null);
  /** Where the focus goes back to when a step is cancelled. */
  const back = useRef<'resend' | 'discard' | null>(null);
  const sale = formatBRL(entry.valor_gasto);

  useEffect(() => {
    // Each step as the app's confirmations: Enter confirms (the password's form, or
    // "Descartar venda" focused), Esc backs out.
    if (mode === 'resend') passwordField.current?.focus();
    else if (mode === 'discard') confirmDiscard.current?.focus();
    else if (back.current === 'resend') resendButton.current?.focus();
    else if (back.current === 'discard') discardButton.current?.focus();
  }, [mode]);

  const open = (next: Mode) => {
    setError(null);
    setFieldError(null);
    setPassword('');
    setMode(next);
  };
  const cancel = () => {
    back.current = mode === 'idle' ? null : mode;
    open('idle');
  };
  // Esc leaves the step, not the whole ledger dialog.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || busy) return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };

  const decide = async (decision: { resend: string } | 'discard') => {
    setBusy(true);
    setError(null);
    try {
      await decideKept(entry.chave, decision);
      back.current = null;
      setMode('idle');
      onDone(
        decision === 'discard'
          ? `Venda de ${sale} descartada: nada foi lançado.`
          : `Venda de ${sale} reenviada com a senha corrigida.`,
      );
    } catch (e) {
      const field = isApiError(e) ? e.fieldError('senha_atendente') : undefined;
      if (field) {
        setFieldError(field);
        passwordField.current?.focus();
      } else if (isApiError(e) && (e.kind === 'conflict' || e.kind === 'not_found')) {
        // Decided elsewhere meanwhile: the reloaded row shows what became of it.
        back.current = null;
        setMode('idle');
        onDone(e.message);
      } else {
        setError(messageOf(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const submitResend = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (password.trim() === '') {
      setFieldError('Informe a senha do atendente.');
      passwordField.current?.focus();
      return;
    }
    void decide({ resend: password });
  };

  const alert = error && (
    <p role="alert" className="text-sm font-medium text-red-800">
      <span aria-hidden="true">⚠ </span>
      {error}
    </p>
  );

  if (mode === 'resend')
    return (
      <form
        onSubmit={submitResend}
        onKeyDown={onKeyDown}
        noValidate
        aria-label={`Reenviar a venda de ${sale}`}
        className="mt-2 flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-2"
      >
        <TextField
          ref={passwordField}
          label="Senha do atendente (corrigida)"
          type="password"
          autoComplete="off"
          maxLength={64}
          value={password}
          error={fieldError ?? undefined}
          onChange={(e) => {
            setPassword(e.target.value);
            setFieldError(null);
          }}
        />
        {alert}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" busy={busy} disabled={busy} shortcut="Enter">
            Reenviar venda
          </Button>
          <Button variant="secondary" size="sm" onClick={cancel} disabled={busy} shortcut="Esc">
            Cancelar
          </Button>
        </div>
      </form>
    );

  if (mode === 'discard')
    return (
      <DiscardStep
        sale={sale}
        alert={alert}
        busy={busy}
        confirmRef={confirmDiscard}
        onKeyDown={onKeyDown}
        onConfirm={() => void decide('discard')}
        onCancel={cancel}
      />
    );

  return (
    <div className="mt-2 flex flex-wrap gap-2">
      <Button ref={resendButton} size="sm" onClick={() => open('resend')}>
        Reenviar
      </Button>
      <Button ref={discardButton} variant="secondary" size="sm" onClick={() => open('discard')}>
        Descartar
      </Button>
    </div>
  );
}

/** The discard step: what discarding means, "Descartar venda" (focused) or "Manter". */
function DiscardStep({
  sale,
  alert,
  busy,
  confirmRef,
  onKeyDown,
  onConfirm,
  onCancel,
}: {
  sale: string;
  alert: ReactNode;
  busy: boolean;
  confirmRef: Ref<HTMLButtonElement>;
  onKeyDown: (e: KeyboardEvent) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      role="group"
      aria-label={`Descartar a venda de ${sale}`}
      onKeyDown={onKeyDown}
      className="mt-2 flex flex-col gap-2 rounded-md border border-red-300 bg-red-50 p-2"
    >
      <p className="text-sm text-red-950">
        Descartar a venda de {sale}? Nenhum ponto será lançado para o cliente; ela fica no histórico
        como “Descartado”.
      </p>
      {alert}
      <div className="flex flex-wrap gap-2">
        <Button
          ref={confirmRef}
          variant="danger"
          size="sm"
          busy={busy}
          disabled={busy}
          shortcut="Enter"
          onClick={onConfirm}
        >
          Descartar venda
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={busy} shortcut="Esc">
          Manter
        </Button>
      </div>
    </div>
  );
}
