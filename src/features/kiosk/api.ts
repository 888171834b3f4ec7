// The kiosk's own endpoints on the app server (/api/quiosque/…): never the service's routes.
// Requests and answers are the contract's (contract/api/kiosk.ts), shared with the server.
import { serverRequest } from '@/api/client';
import {
  BalanceAnswer,
  ExitAnswer,
  KIOSK_EVENTS,
  KioskSaleAnswer,
  StagedSale,
  type BalanceRequest,
  type ClaimRequest,
  type RegisterRequest,
  type StageHereRequest,
} from '#contract/api/kiosk';

export function lookupBalance(celular: BalanceRequest['celular'], signal?: AbortSignal) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/saldo',
    body: { celular } satisfies BalanceRequest,
    schema: BalanceAnswer,
    signal,
  });
}

export function registerCustomer(body: RegisterRequest) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/cadastro',
    body,
    schema: BalanceAnswer,
  });
}

export function currentSale(signal?: AbortSignal) {
  return serverRequest({
    method: 'GET',
    path: '/api/quiosque/venda',
    schema: KioskSaleAnswer,
    signal,
  });
}

export function stageHere(body: StageHereRequest) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/venda',
    body,
    schema: KioskSaleAnswer,
  });
}

export function claimSale(id: string, body: ClaimRequest) {
  return serverRequest({
    method: 'POST',
    path: `/api/quiosque/venda/${encodeURIComponent(id)}/resgatar`,
    body,
    schema: KioskSaleAnswer,
    timeoutMs: 30_000,
  });
}

export function exitKiosk(senha_atendente: string) {
  return serverRequest({
    method: 'POST',
    path: '/api/quiosque/sair',
    body: { senha_atendente },
    schema: ExitAnswer,
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
  source.addEventListener(KIOSK_EVENTS.ready, (e) => {
    const parsed = KioskSaleAnswer.safeParse(read((e as MessageEvent<string>).data));
    handlers.onOpen?.();
    if (parsed.success) handlers.onSale(parsed.data.venda);
  });
  source.addEventListener(KIOSK_EVENTS.sale, (e) => {
    const parsed = StagedSale.safeParse(read((e as MessageEvent<string>).data));
    if (parsed.success) handlers.onSale(parsed.data);
  });
  source.onerror = () => handlers.onError?.();
  return () => source.close();
}
