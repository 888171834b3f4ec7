// The PDV's sales in "Lançamentos do turno": the day's identification rate ("Pontuadas 14 de
// 20 vendas do PDV") and the sales nobody identified, for the day and terminal listed.
import { useEffect, useState } from 'react';
import type { PdvCounterAnswer } from '#contract/api/integracao';
import type * as z from 'zod/mini';
import { formatBRL } from '@/lib/money';
import { fetchPdvSales, pdvSummaryText } from '@/features/points/api/pdv-sales';
import type { LedgerQuery } from '@/features/points/api/ledger';

type Answer = z.infer<typeof PdvCounterAnswer>;

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });

export function PdvLedger({ query, reloads }: { query: LedgerQuery; reloads: number }) {
  const [answer, setAnswer] = useState<{ query: LedgerQuery; data: Answer } | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    const [year, month, date] = query.day.split('-').map(Number) as [number, number, number];
    fetchPdvSales(
      {
        de: new Date(year, month - 1, date).toISOString(),
        ate: new Date(year, month - 1, date + 1).toISOString(),
        ...(query.terminal === null ? {} : { terminal: query.terminal }),
      },
      ac.signal,
    ).then(
      (data) => setAnswer({ query, data }),
      () => undefined, // a counter without a PDV, or a failed read: nothing to add
    );
    return () => ac.abort();
  }, [query, reloads]);

  const data = answer?.query === query ? answer.data : null;
  if (data === null || data.resumo.total + data.resumo.canceladas === 0) return null;
  const r = data.resumo;
  return (
    <section aria-labelledby="pdv-ledger-title" className="mt-4 flex flex-col gap-2">
      <h3 id="pdv-ledger-title" className="font-bold">
        Vendas do PDV
      </h3>
      <p className="text-sm">
        <strong>{pdvSummaryText(r) ?? 'Nenhuma venda do PDV'}</strong>
        {r.nao_identificadas > 0 && ` · ${r.nao_identificadas} não identificadas`}
        {r.em_aberto > 0 && ` · ${r.em_aberto} em aberto`}
        {r.canceladas > 0 && ` · ${r.canceladas} canceladas pelo PDV`}
      </p>
      {data.nao_identificadas.length > 0 && (
        <table className="w-full text-left text-sm">
          <caption className="text-left font-semibold">Não identificadas</caption>
          <thead>
            <tr className="border-b border-slate-300 text-slate-700">
              <th className="py-1 pr-3 font-semibold">Hora</th>
              <th className="py-1 pr-3 font-semibold">Venda do PDV</th>
              <th className="py-1 pr-3 text-right font-semibold">Valor</th>
              <th className="py-1 text-right font-semibold">Itens</th>
            </tr>
          </thead>
          <tbody>
            {data.nao_identificadas.map((s) => (
              <tr key={s.id} className="border-b border-slate-200">
                <td className="tabular py-1.5 pr-3">{time(s.criado_em)}</td>
                <td className="py-1.5 pr-3">{s.id_venda}</td>
                <td className="tabular py-1.5 pr-3 text-right">{formatBRL(s.valor_gasto)}</td>
                <td className="tabular py-1.5 text-right">{s.quantidade_itens || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
