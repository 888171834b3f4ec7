// The counter's side of the store's PDV (its own chunk, fetched once the counter is idle): the
// PDV's sales as the server pushes them (`venda_pdv` on the counter's event stream, the list
// re-read on every `pronto`), the notice on top of the search field, and the sale panel that
// posts the PDV's amount and basket for the customer found, through the posting flow.
import { useEffect, useMemo, useState, type FormEvent, type RefCallback } from 'react';
import type { Customer } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';
import { PDV_EVENT, PdvSale, type PdvSummary } from '#contract/api/integracao';
import { KIOSK_EVENTS } from '#contract/api/kiosk';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatBRL } from '@/lib/money';
import { formatPhoneDisplay } from '@/lib/phone';
import { fetchPdvSales, pdvSummaryText } from '@/features/points/api/pdv-sales';
import { snapshotOf } from '@/features/points/posting-flow';
import type { usePosting } from '@/features/points/use-posting';

/** What the counter needs of the PDV's sales. */
export type PdvCounter = {
  /** The sale a customer found now posts: the one this counter is posting, else the oldest. */
  current: PdvSale | null;
  /** Other sales waiting behind it. */
  others: number;
  /** "Pontuadas 14 de 20 vendas do PDV" (null before the day's first sale). */
  summary: string | null;
};

/** States in which a sale is still open (the others are final). */
const OPEN: ReadonlySet<PdvSale['estado']> = new Set(['aguardando', 'no quiosque', 'lançando']);
/** The counts are re-read this long after a change (several changes, one read). */
const SUMMARY_DELAY_MS = 400;

/** The sale this counter is posting: it stays the current one while being posted. */
let held: string | null = null;

const byAge = (a: PdvSale, b: PdvSale) => a.criado_em.localeCompare(b.criado_em);

/** The current sale and the rest, from the open sales known. */
export function pdvCounterOf(
  sales: ReadonlyMap<string, PdvSale>,
  resumo: PdvSummary | null,
  heldId: string | null = held,
): PdvCounter {
  const waiting = [...sales.values()].filter((s) => s.estado === 'aguardando').sort(byAge);
  const mine = heldId === null ? undefined : sales.get(heldId);
  const current =
    mine && (mine.estado === 'aguardando' || mine.estado === 'lançando')
      ? mine
      : (waiting[0] ?? null);
  return {
    current,
    others: waiting.filter((s) => s !== current).length,
    summary: resumo ? pdvSummaryText(resumo) : null,
  };
}

const itemsText = (n: number) => (n === 1 ? '1 item' : `${n} itens`);

/**
 * Listens to the counter's event stream for the PDV's sales (EventSource reconnects by
 * itself; each connection starts with `pronto`, and the list is read again then), tells the
 * counter (`onChange`) and shows the notice "Venda do PDV · R$ 45,90 · 3 itens".
 */
export function PdvFeed({ onChange }: { onChange: (pdv: PdvCounter) => void }) {
  const [sales, setSales] = useState<ReadonlyMap<string, PdvSale>>(() => new Map());
  const [resumo, setResumo] = useState<PdvSummary | null>(null);

  useEffect(() => {
    const ac = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = (all: boolean) =>
      fetchPdvSales({}, ac.signal).then(
        (a) => {
          if (all) setSales(new Map(a.aguardando.map((s) => [s.id, s])));
          setResumo(a.resumo);
        },
        () => undefined, // the next event or reconnection reads again
      );
    // Every browser the counter runs in has it (a test's DOM may not: nothing to follow).
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/quiosque/eventos');
    source.addEventListener(KIOSK_EVENTS.ready, () => void read(true));
    source.addEventListener(PDV_EVENT, (e) => {
      let sale: PdvSale;
      try {
        const parsed = PdvSale.safeParse(JSON.parse((e as MessageEvent<string>).data));
        if (!parsed.success) return;
        sale = parsed.data;
      } catch {
        return;
      }
      setSales((m) => {
        const next = new Map(m);
        if (OPEN.has(sale.estado)) next.set(sale.id, sale);
        else next.delete(sale.id);
        return next;
      });
      clearTimeout(timer);
      timer = setTimeout(() => void read(false), SUMMARY_DELAY_MS);
    });
    return () => {
      source.close();
      clearTimeout(timer);
      ac.abort();
    };
  }, []);

  const pdv = useMemo(() => pdvCounterOf(sales, resumo), [sales, resumo]);
  useEffect(() => onChange(pdv), [pdv, onChange]);

  const sale = pdv.current;
  if (sale === null) return null;
  return (
    <section
      aria-label="Venda do PDV"
      className="rounded-lg border-2 border-sky-700 bg-sky-50 px-4 py-3 text-sky-950"
    >
      <p className="text-lg">
        <strong>Venda do PDV</strong> ·{' '}
        <strong className="tabular">{formatBRL(sale.valor_gasto)}</strong>
        {sale.quantidade_itens > 0 && ` · ${itemsText(sale.quantidade_itens)}`}
        {pdv.others > 0 && (
          <span className="ml-2 rounded bg-sky-200 px-1.5 py-0.5 text-sm font-semibold">
            +{pdv.others} {pdv.others === 1 ? 'outra' : 'outras'}
          </span>
        )}
      </p>
      <p className="text-sm">
        {sale.estado === 'lançando'
          ? 'Lançando…'
          : 'Digite o celular do cliente: o valor e os itens vêm do PDV. F7 envia ao quiosque.'}
      </p>
    </section>
  );
}

type PanelProps = {
  sale: PdvSale;
  /** The customer found; null: a new customer, registered with `celular` by the posting. */
  customer: Customer | null;
  /** The phone searched (E.164), for a customer not registered yet. */
  celular: string | null;
  password: string | null;
  posting: ReturnType<typeof usePosting>;
  /** Takes the focus when the customer is shown (as the amount field does): Enter posts. */
  focusRef?: RefCallback<HTMLElement>;
  /** Type another amount instead (the regular sale form). */
  onManual: () => void;
};

/**
 * The PDV's sale for the customer found: its amount and basket as the PDV sent them (read
 * only), and one button (Enter) that posts it through the counter's PDV route.
 */
export function PdvSalePanel({
  sale,
  customer,
  celular,
  password,
  posting,
  focusRef,
  onManual,
}: PanelProps) {
  const { phase } = posting;
  const sending = phase.name === 'sending';
  const phone = customer?.celular ?? celular;
  const failed = phase.name === 'failed' ? phase.error : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (posting.locked || !password || !phone) return;
    held = sale.id;
    const body: PostPointsBody = {
      valor_gasto: sale.valor_gasto,
      senha_atendente: password,
      cliente: { celular: phone },
    };
    if (sale.itens.length > 0) body.itens = sale.itens;
    void posting.post(body, snapshotOf(customer), sale.id);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="pdv-sale-title"
      className="flex flex-col gap-4"
    >
      <h2 id="pdv-sale-title" className="text-lg font-bold">
        Lançar venda do PDV
      </h2>
      {failed && (
        <Alert tone="error" title="Não foi possível lançar a venda do PDV.">
          <p>{failed.message}</p>
          {Object.entries(failed.fieldErrors)
            .filter(([p]) => p !== 'senha_atendente')
            .map(([p, m]) => (
              <p key={p}>{m[0]}</p>
            ))}
        </Alert>
      )}
      {!customer && phone && (
        <p className="rounded-md border border-slate-300 bg-slate-50 p-3">
          Cliente novo: será cadastrado com o celular{' '}
          <strong className="tabular">{formatPhoneDisplay(phone)}</strong> ao lançar.
        </p>
      )}
      <div className="rounded-md border border-sky-700 bg-sky-50 p-3 text-sky-950">
        <p className="text-sm font-semibold">
          Valor da compra <span className="font-normal">(do PDV, venda {sale.id_venda})</span>
        </p>
        <p className="tabular text-2xl font-semibold">{formatBRL(sale.valor_gasto)}</p>
        {sale.itens.length > 0 && (
          <table className="mt-2 w-full text-left text-sm">
            <caption className="sr-only">Itens da venda do PDV</caption>
            <thead>
              <tr className="border-b border-sky-300">
                <th className="py-1 pr-2 font-semibold">Item</th>
                <th className="py-1 pr-2 text-right font-semibold">Qtde</th>
                <th className="py-1 text-right font-semibold">Valor</th>
              </tr>
            </thead>
            <tbody>
              {sale.itens.map((item, i) => (
                <tr key={i} className="border-b border-sky-200 last:border-0">
                  <td className="py-1 pr-2">{item.descricao ?? `Item ${i + 1}`}</td>
                  <td className="tabular py-1 pr-2 text-right">{item.qtde ?? 1}</td>
                  <td className="tabular py-1 text-right">{formatBRL(item.valor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          ref={focusRef}
          type="submit"
          size="lg"
          variant="success"
          className="flex-1"
          busy={sending}
          disabled={sending || posting.locked || !phone}
          shortcut="Enter"
        >
          {sending ? 'Lançando…' : `Lançar ${formatBRL(sale.valor_gasto)}`}
        </Button>
        <Button variant="secondary" onClick={onManual} disabled={posting.locked}>
          Digitar outro valor
        </Button>
      </div>
    </form>
  );
}
