// The contract of Vigilância's outbound webhook as a manager sees it: the events it sends and
// `GET /api/vigilancia/entregas`, the store's deliveries with their state and the receiver's
// last answer. The body each delivery carries is `{ evento, loja, alerta }` (alerta: the
// alert as AlertWire). Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';

export const WEBHOOK_EVENTS = ['alerta.criado', 'alerta.reconhecido', 'alerta.descartado'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATES = ['pendente', 'entregue', 'falhou'] as const;

/** The deliveries a manager is shown, newest first. */
export const DELIVERY_LIST_LIMIT = 50;

export const DeliveryWire = /* @__PURE__ */ lazySchema(() =>
  z.object({
    id: z.int(),
    evento: z.string(),
    alerta: z.nullable(z.int()),
    estado: z.enum(DELIVERY_STATES),
    tentativas: z.int(),
    /** The receiver's last HTTP status; null: no answer (or not tried yet). */
    ultimo_status: z.nullable(z.int()),
    ultimo_erro: z.nullable(z.string()),
    /** When the next attempt is due (pendente only). */
    proxima_tentativa: z.nullable(z.string()),
    criado_em: z.string(),
    entregue_em: z.nullable(z.string()),
  }),
);
export type DeliveryWire = z.infer<typeof DeliveryWire>;

/** `data` of `GET /api/vigilancia/entregas`: whether the webhook is on, and its deliveries. */
export const DeliveryList = /* @__PURE__ */ lazySchema(() =>
  z.object({ ativo: z.boolean(), itens: z.array(DeliveryWire) }),
);
export type DeliveryList = z.infer<typeof DeliveryList>;
