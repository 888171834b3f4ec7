// The counter's side of the kiosk (a lazy chunk): send the sale's amount to the paired kiosk
// ("Enviar ao quiosque", F7), or the PDV's sale waiting at the counter, follow the customer's
// claim live and cancel it while unclaimed.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '@/api/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { MoneyInput } from '@/components/ui/money-input';
import { useHotkey } from '@/hooks/use-hotkey';
import { formatBRL } from '@/lib/money';
import { serverRequest } from '@/api/client';
import {
  CounterSaleAnswer,
  KIOSK_EVENTS,
  KiosksAnswer,
  StagedSale,
  type StageForKioskRequest,
} from '#contract/api/kiosk';
import { PdvToKioskAnswer, type PdvSale } from '#contract/api/integracao';

// The counter's calls stay in this file (the kiosk screen's are in ./api.ts, in its own chunk).
const listKiosks = (signal?: AbortSignal) =>
  serverRequest({ method: 'GET', path: '/api/quiosque/terminais', schema: KiosksAnswer, signal });

const stageForKiosk = (body: StageForKioskRequest) =>
  serverRequest({ method: 'POST', path: '/api/quiosque/vendas', body, schema: CounterSaleAnswer });

const cancelStaged = (id: string) =>
  serverRequest({
    method: 'POST',
    path: `/api/quiosque/vendas/${encodeURIComponent(id)}/cancelar`,
    body: {},
    schema: CounterSaleAnswer,
  });

/** F7 with a PDV sale waiting: the server stages the PDV's amount and basket on the kiosk. */
const pdvToKiosk = (id: string, body: { quiosque: number; senha_atendente: string }) =>
  serverRequest({
    method: 'POST',
    path: `/api/integracao/balcao/vendas/${encodeURIComponent(id)}/quiosque`,
    body,
    schema: PdvToKioskAnswer,
  });

/** This counter's staged sales as the server pushes them (EventSource reconnects by itself). */
function followSales(onSale: (sale: StagedSale) => void): () => void {
  const source = new EventSource('/api/quiosque/eventos');
  source.addEventListener(KIOSK_EVENTS.sale, (e) => {
    try {
      const parsed = StagedSale.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (parsed.success) onSale(parsed.data);
    } catch {
      // not a sale
    }
  });
  return () => source.close();
}

const PAIRED = 'pdv.quiosque.pareado';

const STATES: Record<StagedSale['estado'], string> = {
  aguardando: 'Aguardando o cliente no quiosque',
  lançando: 'O cliente digitou o celular: lançando…',
  lançado: 'Pontos lançados pelo cliente',
  recusado: 'Não lançado',
  desconhecido: 'Resultado ainda desconhecido',
  cancelado: 'Venda cancelada',
  expirado: 'Tempo esgotado: o cliente não pontuou',
};

export default function SendToKiosk({
  password,
  pdv,
}: {
  password: string | null;
  /** The PDV's sale waiting at the counter: F7 sends it (its amount and basket) instead. */
  pdv?: PdvSale | null | undefined;
}) {
  const kiosks = useQuery({
    queryKey: ['quiosque', 'terminais'],
    queryFn: ({ signal }) => listKiosks(signal),
    staleTime: 60_000,
  });
  const list = kiosks.data?.quiosques ?? [];
  const [paired, setPaired] = useState<number | null>(() => {
    if (import.meta.env.SSR) return null;
    const v = Number(localStorage.getItem(PAIRED));
    return Number.isInteger(v) && v > 0 ? v : null;
  });
  const kioskId = list.some((k) => k.id === paired) ? paired : (list[0]?.id ?? null);
  const [valor, setValor] = useState(0);
  const [sale, setSale] = useState<StagedSale | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Live updates of the sale this counter staged.
  const saleId = sale?.id ?? null;
  useEffect(() => {
    if (saleId === null) return;
    return followSales((next) => {
      if (next.id === saleId) setSale(next);
    });
  }, [saleId]);

  const open = sale !== null && (sale.estado === 'aguardando' || sale.estado === 'lançando');
  const fromPdv = pdv?.estado === 'aguardando' ? pdv : null;
  const blocked =
    password === null
      ? 'Abra o turno para enviar ao quiosque.'
      : valor <= 0 && !fromPdv
        ? 'Digite o valor da compra.'
        : null;

  const send = async () => {
    if (blocked || kioskId === null || busy || open) return;
    setBusy(true);
    setError(null);
    try {
      const body = { quiosque: kioskId, senha_atendente: password! };
      if (fromPdv) {
        setSale((await pdvToKiosk(fromPdv.id, body)).venda_quiosque);
      } else {
        setSale((await stageForKiosk({ ...body, valor_gasto: valor })).venda);
        setValor(0);
      }
    } catch (err) {
      setError(isApiError(err) ? (err.fieldError('senha_atendente') ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    if (sale === null) return;
    try {
      setSale((await cancelStaged(sale.id)).venda);
    } catch (err) {
      setError(isApiError(err) ? err.message : String(err));
    }
  };
  useHotkey('F7', () => void send(), kioskId !== null && !open);

  if (kiosks.isPending || list.length === 0) return null;
  return (
    <section
      aria-labelledby="kiosk-send-title"
      className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <h2 id="kiosk-send-title" className="text-lg font-bold">
        Cliente pontua no quiosque
      </h2>
      {sale && open ? (
        <div className="flex flex-col gap-3" role="status">
          <p className="text-lg">
            <strong>{STATES[sale.estado]}</strong>: {formatBRL(sale.valor_gasto)}
          </p>
          {sale.estado === 'aguardando' && (
            <Button variant="danger" onClick={() => void cancel()}>
              Cancelar envio
            </Button>
          )}
        </div>
      ) : (
        <>
          {sale && <SaleOutcome sale={sale} />}
          {list.length > 1 && (
            <KioskSelect
              kiosks={list}
              value={kioskId}
              onPick={(id) => {
                setPaired(id);
                localStorage.setItem(PAIRED, String(id));
              }}
            />
          )}
          {fromPdv ? (
            <p>
              Venda do PDV <strong className="tabular">{formatBRL(fromPdv.valor_gasto)}</strong>: o
              cliente digita o celular no quiosque.
              {error && (
                <span role="alert" className="block font-medium text-red-800">
                  {error}
                </span>
              )}
            </p>
          ) : (
            <MoneyInput
              label="Valor para o quiosque"
              value={valor}
              onChange={(c) => {
                setValor(c);
                setError(null);
              }}
              error={error ?? undefined}
            />
          )}
          <Button
            onClick={() => void send()}
            disabled={blocked !== null || busy}
            busy={busy}
            shortcut="F7"
            aria-describedby={blocked ? 'kiosk-send-block' : undefined}
          >
            {fromPdv ? 'Enviar venda do PDV ao quiosque' : 'Enviar ao quiosque'}
            {list.length === 1 ? ` (${list[0]!.nome})` : ''}
          </Button>
          {blocked && (
            <p id="kiosk-send-block" className="text-sm text-slate-800">
              {blocked}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** How the counter's last sale sent to the kiosk ended: posted (points, to whom) or not. */
function SaleOutcome({ sale }: { sale: StagedSale }) {
  return (
    <Alert tone={sale.estado === 'lançado' ? 'success' : 'warning'} title={STATES[sale.estado]}>
      <p>
        {formatBRL(sale.valor_gasto)}
        {sale.estado === 'lançado' && sale.pontos !== null && `: ${sale.pontos} pontos`}
        {sale.cliente &&
          ` para ${sale.cliente.primeiro_nome ? `${sale.cliente.primeiro_nome}, ` : ''}${sale.cliente.celular}`}
        {sale.estado !== 'lançado' && sale.mensagem && `. ${sale.mensagem}`}
      </p>
    </Alert>
  );
}

/** The kiosk this counter sends to, when there are several (remembered on this device). */
function KioskSelect({
  kiosks,
  value,
  onPick,
}: {
  kiosks: readonly { id: number; nome: string }[];
  value: number | null;
  onPick: (id: number) => void;
}) {
  return (
    <SelectField
      label="Quiosque"
      value={value ?? ''}
      onChange={(e) => onPick(Number(e.target.value))}
    >
      {kiosks.map((k) => (
        <option key={k.id} value={k.id}>
          {k.nome}
        </option>
      ))}
    </SelectField>
  );
}
