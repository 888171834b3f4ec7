// The kiosk's own endpoints on the app server (/api/quiosque/…): never the service's routes.
import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';
import { serverRequest } from '@/api/client';
import { KIOSK_SALE_STATES } from '@/api/wire';

export const KioskCustomer = lazySchema(() =>
  z.looseObject({
    primeiro_nome: z.nullable(z.string()),
    celular: z.string(),
    saldo: z.number(),
    saldo_carencia: z.number(),
    carencia_liberada_em: z.nullable(z.string()),
    proximo_vencimento: z.nullable(
      z.looseObject({ pontos: z.number(), data_validade: z.string() }),
    ),
    premios_pendentes: z.array(z.looseObject({ nome: z.string(), valido_ate: z.string() })),
  }),
);
export type KioskCustomer = z.infer<typeof KioskCustomer>;

export const SaleState = lazySchema(() => z.enum(KIOSK_SALE_STATES));

export const StagedSale = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    estado: SaleState,
    valor_gasto: z.number(),
    itens: z.array(
      z.looseObject({
        descricao: z.optional(z.string()),
        qtde: z.optional(z.number()),
        valor: z.number(),
      }),
    ),
    expira_em: z.string(),
    mensagem: z.nullable(z.string()),
    pontos: z.nullable(z.number()),
    cliente: z.nullable(KioskCustomer),
  }),
);
export type StagedSale = z.infer<typeof StagedSale>;

const Balance = lazySchema(() =>
  z.looseObject({ cadastrado: z.boolean(), cliente: z.nullable(KioskCustomer) }),
);
const OneSale = lazySchema(() => z.looseObject({ venda: z.nullable(StagedSale) }));

export function lookupBalance(celular: string, signal?: AbortSignal) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/saldo',
    body: { celular },
    schema: Balance,
    signal,
  });
}

export function registerCustomer(body: { celular: string; nome?: string; consentimento: true }) {
  return serverRequest({ method: 'POST', path: '/api/quiosque/cadastro', body, schema: Balance });
}

export function currentSale(signal?: AbortSignal) {
  return serverRequest({ method: 'GET', path: '/api/quiosque/venda', schema: OneSale, signal });
}

export function stageHere(body: { valor_gasto: number; senha_atendente: string }) {
  return serverRequest({ method: 'POST', path: '/api/quiosque/venda', body, schema: OneSale });
}

export function claimSale(
  id: string,
  body: { celular: string; nome?: string; consentimento?: boolean },
) {
  return serverRequest({
    method: 'POST',
    path: `/api/quiosque/venda/${encodeURIComponent(id)}/resgatar`,
    body,
    schema: OneSale,
    timeoutMs: 30_000,
  });
}

export function exitKiosk(senha_atendente: string) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/sair',
    body: { senha_atendente },
    schema: z.looseObject({ ok: z.boolean() }),
  });
}

/**
 * Server-Sent Events of this terminal's staged sales: `pronto` (with the open sale, on every
 * (re)connection) and `venda` (a sale changed). EventSource reconnects by itself.
 */
export function subscribeSales(handlers: {
  onSale: (sale: StagedSale | null) => void;
  onOpen?: () => void;
  onError?: () => void;
}): () => void {
  const source = new EventSource('/api/quiosque/eventos');
  const read = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  };
  source.addEventListener('pronto', (e) => {
    const parsed = OneSale.safeParse(read((e as MessageEvent<string>).data));
    handlers.onOpen?.();
    if (parsed.success) handlers.onSale(parsed.data.venda);
  });
  source.addEventListener('venda', (e) => {
    const parsed = StagedSale.safeParse(read((e as MessageEvent<string>).data));
    if (parsed.success) handlers.onSale(parsed.data);
  });
  source.onerror = () => handlers.onError?.();
  return () => source.close();
}
