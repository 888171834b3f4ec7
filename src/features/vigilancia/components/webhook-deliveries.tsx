import type { DeliveryWire } from '#contract/api/vigilancia-webhook';
import { Loaded } from '@/components/ui/list-states';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { useDeliveries } from '../api/deliveries';
import { whenText } from '../labels';

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

const when = (iso: string | null) => (iso === null ? '—' : whenText(iso));

function lastAnswer(d: DeliveryWire): string {
  if (d.tentativas === 0) return 'Ainda não enviada';
  if (d.ultimo_status !== null) return `HTTP ${d.ultimo_status}`;
  return d.ultimo_erro ?? 'Sem resposta';
}

/**
 * The webhook's deliveries of this store (`loja`: the chain's store a rede reads), newest
 * first: what the store's systems received.
 */
export function WebhookDeliveries({ loja = null }: { loja?: number | null }) {
  const q = useDeliveries(loja);
  return (
    <Loaded
      query={q}
      loading="Carregando as entregas…"
      failed="Não foi possível carregar as entregas do webhook."
    >
      {(data) => <Deliveries {...data} onRefresh={() => void q.refetch()} />}
    </Loaded>
  );
}

function Deliveries({
  ativo,
  itens,
  onRefresh,
}: {
  ativo: boolean;
  itens: readonly DeliveryWire[];
  onRefresh: () => void;
}) {
  return (
    <section aria-labelledby="webhook-title" className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="webhook-title" className="text-lg font-semibold">
          Entregas do webhook
        </h2>
        <Button size="sm" variant="secondary" onClick={onRefresh}>
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
        <FitTable
          label="Entregas do webhook"
          cards="text"
          rowHeader={0}
          columns={[
            { header: 'Evento' },
            { header: 'Alerta', cell: 'tabular-nums' },
            { header: 'Situação', cell: 'font-semibold' },
            { header: 'Tentativas', numeric: true },
            { header: 'Última resposta', cell: 'break-words' },
            { header: 'Quando', cell: 'tabular-nums' },
          ]}
          rows={itens.map((d) => ({
            key: String(d.id),
            cells: [
              EVENT[d.evento] ?? d.evento,
              d.alerta === null ? '—' : `nº ${d.alerta}`,
              STATE[d.estado],
              d.tentativas,
              lastAnswer(d),
              d.estado === 'pendente'
                ? `próxima ${when(d.proxima_tentativa)}`
                : d.estado === 'entregue'
                  ? `entregue ${when(d.entregue_em)}`
                  : `criada ${when(d.criado_em)}`,
            ],
          }))}
        />
      )}
    </section>
  );
}
