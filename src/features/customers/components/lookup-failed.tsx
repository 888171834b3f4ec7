import { isServiceUnavailable, type ApiError } from '@/api/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { Typed } from '@/features/customers/use-counter-customer';

type Props = {
  error: ApiError;
  /** What was searched (a phone lets a sale be kept while the service is unavailable). */
  typed: Typed | null;
  onRetry: () => void;
};

/**
 * A search that failed. When the service cannot be reached (contingency) the counter can still
 * keep a sale by phone, for the app server to post when the service returns: the balance is
 * not shown (none is invented), and a search by CPF or code is told to use the phone.
 */
export function LookupFailed({ error, typed, onRetry }: Props) {
  const retry = (
    <div>
      <Button variant="secondary" onClick={onRetry}>
        Tentar de novo
      </Button>
    </div>
  );
  if (!isServiceUnavailable(error))
    return (
      <Alert tone="error" title="Não foi possível buscar o cliente.">
        <p>{error.message}</p>
        {retry}
      </Alert>
    );
  return (
    <section
      role="alert"
      aria-labelledby="unavailable-title"
      data-testid="lookup-unavailable"
      className="flex flex-col gap-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="unavailable-title" className="text-lg font-bold">
        Não foi possível consultar o cliente agora
      </h2>
      <p>
        O serviço de fidelidade está indisponível: o cadastro e o saldo
        {typed?.display ? ` de ${typed.display}` : ''} não podem ser lidos agora.
      </p>
      {typed?.celular ? (
        <p>
          A venda pode ser guardada ao lado e será lançada quando o serviço voltar, uma única vez (o
          cliente é cadastrado junto, se ainda não tiver cadastro).
        </p>
      ) : (
        <p>
          Para guardar a venda, busque pelo <strong>celular</strong> do cliente: sem o serviço, os
          pontos só podem ser guardados pelo celular, não por CPF ou código.
        </p>
      )}
      {retry}
    </section>
  );
}
