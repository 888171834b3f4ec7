import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AlertDetail as Detail } from '#contract/api/vigilancia';
import { Alert } from '@/components/ui/alert';
import { Loaded } from '@/components/ui/list-states';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';
import { alertKeys, decideAlert, useAlertDetail } from '../api/alerts';
import { useShiftLedger } from '../api/shift';
import { dayText, STATE_LABELS, whenText } from '../labels';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** What the rule saw beyond the postings: the PDV's sale, or that there was none. */
function Evidence({ d }: { d: Detail }) {
  const e = d.evidencia;
  const sale = e.venda_pdv as Record<string, unknown> | null | undefined;
  return (
    <div className="space-y-1">
      {sale === null && (
        <p>
          <strong>Venda do PDV:</strong> nenhuma nos {str(e.procurado_minutos)} minutos antes do
          lançamento, num balcão integrado ao PDV.
        </p>
      )}
      {sale && (
        <p>
          <strong>Venda do PDV:</strong> nº {str(sale.id_venda)} de{' '}
          {typeof sale.valor === 'number' ? formatBRL(sale.valor) : '—'}
          {typeof sale.pontos === 'number' && `, ${sale.pontos} pontos`} ({str(sale.estado)}
          {typeof sale.quando === 'string' && `, ${whenText(sale.quando)}`}).
        </p>
      )}
      {typeof e.estornar === 'string' && (
        <Alert tone="warning" title="O que fazer">
          <p>
            Estorne {e.estornar} no painel do programa de fidelidade (a API não estorna pontos) e
            depois reconheça este alerta com uma nota.
          </p>
        </Alert>
      )}
    </div>
  );
}

function Postings({ d }: { d: Detail }) {
  if (d.lancamentos.length === 0) return null;
  return (
    <FitTable
      label="Lançamentos do alerta"
      cards="figures"
      columns={[
        { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
        { header: 'Valor', numeric: true },
        { header: 'Terminal' },
        { header: 'Loja', numeric: true },
        { header: 'Estado' },
      ]}
      rows={d.lancamentos.map((p) => ({
        key: p.chave,
        cells: [whenText(p.quando), formatBRL(p.valor), p.terminal ?? '—', p.loja, p.estado],
      }))}
    />
  );
}

/** The counter's postings of the alert's day: the shift ledger, shown on demand. */
function Shift({ link, dia, loja }: { link: string; dia: string; loja: number | null }) {
  const [open, setOpen] = useState(false);
  const ledger = useShiftLedger(open ? link : null, loja);
  return (
    <div className="space-y-2">
      <Button size="sm" variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Ocultar' : 'Ver'} os lançamentos do turno ({dayText(dia)})
      </Button>
      {open && (
        <Loaded
          query={ledger}
          loading="Carregando o turno…"
          failed="Não foi possível carregar o turno."
        >
          {(shift) => (
            <FitTable
              label="Lançamentos do turno"
              cards="figures"
              columns={[
                { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
                { header: 'Valor', numeric: true },
                { header: 'Celular' },
                { header: 'Estado' },
              ]}
              rows={shift.lancamentos.map((l) => ({
                key: l.chave,
                cells: [
                  whenText(l.criado_em),
                  formatBRL(l.valor_gasto),
                  maskPhone(l.celular),
                  l.estado,
                ],
              }))}
            />
          )}
        </Loaded>
      )}
    </div>
  );
}

function Decision({ d, onDone }: { d: Detail; onDone: () => void }) {
  const qc = useQueryClient();
  const [nota, setNota] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (acao: 'reconhecer' | 'descartar') => {
    if (nota.trim().length < 3) return setError('Escreva uma nota (3 letras ou mais).');
    setBusy(true);
    setError(null);
    try {
      const next = await decideAlert(d.alerta.id, acao, nota.trim());
      qc.setQueryData(alertKeys.detail(d.alerta.id), next);
      await qc.invalidateQueries({ queryKey: alertKeys.all });
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Erro desconhecido.');
    } finally {
      setBusy(false);
    }
  };
  const id = `nota-${d.alerta.id}`;
  return (
    <form className="space-y-2" onSubmit={(e) => e.preventDefault()} aria-label="Decisão">
      <label htmlFor={id} className="block font-semibold">
        Nota (por que reconhece ou descarta)
      </label>
      <textarea
        id={id}
        value={nota}
        maxLength={500}
        rows={2}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => setNota(e.target.value)}
        className="w-full rounded-md border border-slate-400 p-2"
      />
      {error && (
        <p id={`${id}-error`} className="text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={busy} busy={busy} onClick={() => void decide('reconhecer')}>
          Reconhecer
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={busy}
          onClick={() => void decide('descartar')}
        >
          Descartar
        </Button>
      </div>
    </form>
  );
}

/**
 * One alert: why the rule matters, what it saw, the shift, and the manager's decision. `loja`:
 * the chain's store a rede reads it from (it decides nothing: `readOnly`).
 */
export function AlertDetail({
  id,
  onClose,
  loja = null,
  readOnly = false,
}: {
  id: number;
  onClose: () => void;
  loja?: number | null;
  readOnly?: boolean;
}) {
  const q = useAlertDetail(id, loja);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a row far below (a card at 390 px): brought into view, focus on its title.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: 'start' });
  }, [id]);
  return (
    <section
      aria-label={`Alerta nº ${id}`}
      className="space-y-3 rounded-md border border-slate-300 bg-white p-4"
    >
      <div className="flex items-start gap-2">
        <h2 ref={heading} tabIndex={-1} className="text-xl font-bold outline-none">
          Alerta nº {id}
        </h2>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose}>
          Fechar
        </Button>
      </div>
      <Loaded
        query={q}
        loading="Carregando as evidências…"
        failed="Não foi possível carregar o alerta."
      >
        {(d) => (
          <>
            <p className="font-semibold">{d.alerta.regra_nome}</p>
            <p>{d.alerta.resumo}</p>
            <p className="text-slate-700">{d.porque}</p>
            <p className="text-slate-700">
              {d.alerta.cliente && <>Cliente {d.alerta.cliente} · </>}
              {d.alerta.terminal_nome ?? d.alerta.terminal ?? 'Vários terminais'} · dia{' '}
              {dayText(d.alerta.dia)}
            </p>
            <Evidence d={d} />
            <Postings d={d} />
            {d.turno && <Shift link={d.turno.link} dia={d.turno.dia} loja={loja} />}
            {d.alerta.estado === 'aberto' && readOnly ? (
              <p>Aberto: só o gerente da loja reconhece ou descarta.</p>
            ) : d.alerta.estado === 'aberto' ? (
              <Decision d={d} onDone={() => undefined} />
            ) : (
              <p role="status">
                <strong>{STATE_LABELS[d.alerta.estado]}</strong> por {d.alerta.decidido_por ?? '—'}
                {d.alerta.decidido_em && ` em ${whenText(d.alerta.decidido_em)}`}: {d.alerta.nota}
              </p>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
