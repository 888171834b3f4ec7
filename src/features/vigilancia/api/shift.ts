// The shift ledger behind an alert: the counter's postings of that local day (the same
// `GET /api/lancamentos` the counter's "Lançamentos do turno" reads), by the link the alert's
// evidence carries.
import { useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { Ledger } from '#contract/api/postings';
import { alertKeys } from './alerts';

/** `loja`: the chain's store a rede reads it from (null: the terminal's own). */
export const useShiftLedger = (link: string | null, loja: number | null = null) =>
  useQuery({
    queryKey: [...alertKeys.all, 'turno', link, loja] as const,
    enabled: link !== null,
    queryFn: ({ signal }) => {
      const url = new URL(link!, 'http://x');
      return serverRequest({
        method: 'GET',
        path: '/api/lancamentos',
        query: Object.fromEntries(url.searchParams),
        schema: Ledger,
        signal,
        headers: storeHeaders(loja),
      });
    },
  });
