import type { DeliveryWire } from '#contract/api/vigilancia-webhook';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useDeliveries } from '../api/deliveries';

const STATE: Record<DeliveryWire['estado'], string> = {
  pendente: 'Pendente',
  entregue: 'Entregue',
  falhou: 'Falhou',
};

const EVENT: Record<string, string> = {
  'alerta.criado': 'Alerta criado',
  'alerta.reconhecido': 'Alerta reconhecido',
  'alerta.descartado': 'Alerta descartado',
};

const when = (iso: string | null) =>
  iso === null
    ? '—'
    : new Date(iso).toLocaleString('pt-BR', {
        timeZone: 'America/Sao_Paulo',
        day: '2-digit',
        month: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });

function lastAnswer(d: DeliveryWire): string {
  if (d.tentativas === 0) return 'Ainda não enviada';
  if (d.ultimo_status !== null) return `HTTP ${d.ultimo_status}`;
  return d.ultimo_erro ?? 'Sem resposta';
}

/** The webhook's deliveries of this store, newest first: what the store's systems received. */
export function WebhookDeliveries() {
  const q = useDeliveries();
  if (q.isPending) return <p role="status">Carregando as entregas…</p>;
  if (q.isError) {
    return (
      <Alert tone="error" title="Não foi possível carregar as entregas do webhook.">
        <p>{q.error.message}</p>
      </Alert>
    );
  }
  const { ativo, itens } = q.data;
  return (
    <section aria-labelledby="webhook-title" className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="webhook-title" className="text-lg font-semibold">
          Entregas do webhook
        </h2>
        <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
          Atualizar
        </Button>
      </div>
      <p className="text-sm text-slate-700">
        {ativo
          ? 'Cada alerta criado, reconhecido ou descartado é enviado, assinado, aos sistemas da loja; sem resposta ou com erro do receptor, é reenviado até 8 vezes.'
          : 'Webhook desligado: configure ALERT_WEBHOOK_URL e ALERT_WEBHOOK_SECRET no servidor para enviar os alertas aos sistemas da loja.'}
      </p>
      {itens.length === 0 ? (
        <p className="rounded-md border border-slate-300 bg-white p-3">Nenhuma entrega ainda.</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-slate-300 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-100">
              <tr>
                <th className="p-2">Evento</th>
                <th className="p-2">Alerta</th>
                <th className="p-2">Situação</th>
                <th className="p-2 text-right">Tentativas</th>
                <th className="p-2">Última resposta</th>
                <th className="p-2">Quando</th>
              </tr>
            </thead>
            <tbody>
              {itens.map((d) => (
                <tr key={d.id} className="border-t border-slate-200">
                  <td className="p-2">{EVENT[d.evento] ?? d.evento}</td>
                  <td className="p-2 tabular-nums">{d.alerta === null ? '—' : `nº ${d.alerta}`}</td>
                  <td className="p-2 font-semibold">{STATE[d.estado]}</td>
                  <td className="p-2 text-right tabular-nums">{d.tentativas}</td>
                  <td className="p-2">{lastAnswer(d)}</td>
                  <td className="p-2 tabular-nums">
                    {d.estado === 'pendente'
                      ? `próxima ${when(d.proxima_tentativa)}`
                      : d.estado === 'entregue'
                        ? `entregue ${when(d.entregue_em)}`
                        : `criada ${when(d.criado_em)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
