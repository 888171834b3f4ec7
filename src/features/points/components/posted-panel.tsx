import { Button } from '@/components/ui/button';
import { formatBRL } from '@/lib/money';
import { formatPointsLabel } from '@/lib/points';
import type { Posted } from '@/features/points/posting-types';
import type { Kept } from '@/features/points/kept';
import { KeptPanel } from '@/features/points/components/kept-panel';
import { ResultActions, SaleSlip, useResultPanel } from '@/features/points/components/result-parts';
import { handOverTarget, type HandOverTarget } from '@/features/points/pending-hand-over';

/** "+12 pontos nesta compra". */
export const earnedText = (n: number) =>
  n > 0 ? `+${formatPointsLabel(n)} nesta compra` : 'Nenhum ponto nesta compra';

/** "Entregar agora" for the rewards the posting won (absent: this counter does not hand over). */
export type PostedHandOver = {
  /** Rewards (`id_premio_cliente`) handed over from this result already. */
  handed: ReadonlySet<number>;
  disabled?: boolean;
  onHandOver: (target: HandOverTarget, opener: HTMLElement) => void;
};

type Props = {
  posted: Posted;
  kept?: undefined;
  customerName: string | null;
  celular: string;
  establishment: string;
  onNext: () => void;
  handOver?: PostedHandOver | undefined;
};

/**
 * The result of a posting: posted (its answer), or kept while the service is down (see
 * KeptPanel), each with the printable slip and the way to the next customer.
 */
export function PostedPanel(
  props: Omit<Props, 'posted' | 'kept'> & { posted: Posted | null; kept: Kept | null },
) {
  const { posted, kept, ...rest } = props;
  if (kept) return <KeptPanel kept={kept} {...rest} />;
  return posted && <PostedResult posted={posted} {...rest} />;
}

function PostedResult({ posted, customerName, celular, establishment, onNext, handOver }: Props) {
  const heading = useResultPanel(onNext);
  const { rewards } = posted;

  return (
    <section aria-labelledby="posted-title" className="flex flex-col gap-4">
      <div
        role="status"
        className="rounded-lg border-2 border-emerald-700 bg-emerald-50 p-4 text-emerald-950"
      >
        <h2 id="posted-title" ref={heading} tabIndex={-1} className="text-xl font-bold">
          ✓ Pontos lançados{posted.verified ? ' (conferido no cadastro)' : ''}
        </h2>
        <p className="mt-1">
          Compra de <strong className="tabular">{formatBRL(posted.valor)}</strong>
          {customerName ? (
            <>
              {' '}
              para <strong>{customerName}</strong>
            </>
          ) : null}
          .
        </p>
        {posted.pontos !== null && (
          <p className="tabular mt-1 text-lg font-bold" data-testid="earned-points">
            {earnedText(posted.pontos)}
          </p>
        )}
        <p className="mt-3 text-sm font-semibold uppercase tracking-wide">Novo saldo</p>
        <p className="tabular text-4xl font-bold" data-testid="new-balance">
          {formatPointsLabel(posted.saldo_atual)}
        </p>
        {posted.saldo_carencia > 0 && (
          <p className="mt-2 rounded-md bg-amber-100 px-3 py-2 text-amber-950">
            <strong>{formatPointsLabel(posted.saldo_carencia)} em carência</strong>: entram no saldo
            amanhã (o programa deste estabelecimento libera os pontos no dia seguinte à compra).
          </p>
        )}
      </div>

      {rewards.state === 'checking' && (
        <p role="status" className="text-slate-700">
          Verificando prêmios…
        </p>
      )}
      {rewards.state === 'done' && rewards.count > 0 && (
        <div
          role="alert"
          className="rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950"
        >
          <p className="text-xl font-bold">
            <span aria-hidden="true">★ </span>
            {rewards.count === 1
              ? 'O cliente ganhou um prêmio!'
              : `O cliente ganhou ${rewards.count} prêmios!`}
          </p>
          {rewards.records.length > 0 && (
            <ul className="mt-2 flex flex-col gap-1.5">
              {rewards.records.map((r) => (
                <li
                  key={r.id_premio_cliente}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1"
                >
                  <span className="font-semibold">
                    <span aria-hidden="true">• </span>
                    {r.nome}
                  </span>
                  {handOver &&
                    r.premio_status === 'pendente_resgate' &&
                    (handOver.handed.has(r.id_premio_cliente) ? (
                      <span className="font-semibold text-emerald-800">✓ Entregue</span>
                    ) : (
                      <Button
                        size="sm"
                        variant="success"
                        aria-label={`Entregar agora ${r.nome}`}
                        disabled={handOver.disabled}
                        onClick={(e) =>
                          handOver.onHandOver(
                            handOverTarget(
                              { id_cliente: posted.id_cliente, nome: customerName, celular },
                              r,
                            ),
                            e.currentTarget,
                          )
                        }
                      >
                        Entregar agora
                      </Button>
                    ))}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <ResultActions onNext={onNext} />

      <SaleSlip establishment={establishment} at={posted.at} celular={celular} valor={posted.valor}>
        {posted.pontos !== null && (
          <p>
            Pontos nesta compra: {posted.pontos > 0 ? '+' : ''}
            {formatPointsLabel(posted.pontos)}
          </p>
        )}
        <p>Saldo: {formatPointsLabel(posted.saldo_atual)}</p>
        {posted.saldo_carencia > 0 && (
          <p>Em carência: {formatPointsLabel(posted.saldo_carencia)} (liberados amanhã)</p>
        )}
        {rewards.state === 'done' && rewards.names.map((name, i) => <p key={i}>Prêmio: {name}</p>)}
      </SaleSlip>
    </section>
  );
}
