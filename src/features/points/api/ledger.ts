// The shift ledger: this terminal's postings of a period, from the app server's journal.
import * as z from 'zod/mini';
import { serverRequest } from '@/api/client';
import { Lancamento } from '@/features/points/api/post-points';

export const Ledger = z.looseObject({
  lancamentos: z.array(
    z.extend(Lancamento, {
      criado_em: z.string(),
      terminal: z.nullable(z.string()),
      terminal_nome: z.nullable(z.string()),
    }),
  ),
  truncado: z.boolean(),
});
export type Ledger = z.infer<typeof Ledger>;
export type LedgerEntry = Ledger['lancamentos'][number];

/** The postings of the local day of `day` (newest first, unsettled ones of earlier days on top). */
export function fetchLedger(day: Date, signal?: AbortSignal): Promise<Ledger> {
  const from = new Date(day.getFullYear(), day.getMonth(), day.getDate());
  const to = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1);
  return serverRequest({
    method: 'GET',
    path: '/api/lancamentos',
    query: { de: from.toISOString(), ate: to.toISOString() },
    schema: Ledger,
    signal,
  });
}
