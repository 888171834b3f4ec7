// The counter's contingency state: while the loyalty service is unreachable the app server
// keeps sales and delivers them when it returns. Polled from `GET /api/contingencia` (often
// while anything waits), shown only when there is something to say. Loads with the counter's
// second chunk.
import { useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { Contingency } from '#contract/api/postings';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function ContingencyBanner() {
  const { data } = useQuery({
    queryKey: ['contingencia'],
    queryFn: ({ signal }) =>
      serverRequest({ method: 'GET', path: '/api/contingencia', schema: Contingency, signal }),
    refetchInterval: (q) => {
      const d: Contingency | undefined = q.state.data;
      return d && (d.contingencia || d.aguardando > 0) ? 2_000 : 5_000;
    },
    retry: false,
  });
  if (!data || (!data.contingencia && data.aguardando === 0 && data.atencao === 0)) return null;
  return (
    <div
      role="status"
      data-testid="contingency"
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 print:hidden ${
        data.contingencia ? 'bg-amber-300 text-amber-950' : 'bg-sky-100 text-sky-950'
      }`}
    >
      {(data.contingencia || data.aguardando > 0) && (
        <strong>
          {data.contingencia
            ? 'Serviço indisponível — modo contingência'
            : 'Serviço de volta: enviando as vendas guardadas'}
        </strong>
      )}
      {data.aguardando > 0 && (
        <span data-testid="contingency-waiting">
          {plural(data.aguardando, 'venda aguardando envio', 'vendas aguardando envio')}
        </span>
      )}
      {data.contingencia && (
        <span>
          As vendas são guardadas e lançadas quando o serviço voltar. Saldos indisponíveis.
        </span>
      )}
      {data.atencao > 0 && (
        <span className="font-semibold">
          {plural(data.atencao, 'venda precisa', 'vendas precisam')} de atenção de um gerente
          (Lançamentos do turno)
        </span>
      )}
    </div>
  );
}
