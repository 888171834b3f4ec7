/**
 * Staging a sale for a kiosk (by the counter, or on the kiosk itself with no counter paired),
 * following it from the counter and cancelling it while no customer has claimed it.
 */
import type { SaleItem } from '#contract/api/kiosk';
import type { KioskDeps } from './deps';
import { checkAttendantPassword } from './password';
import type { PasswordVerdict } from './password';
import { saleMessages } from './sales';
import type { StagedSale } from './sales';

export interface StageRequest {
  /** The staged sale's id (default a new UUID). */
  id?: string;
  /** The terminal asking (its attendant-password lockout counts). */
  terminalId: number;
  kioskId: number;
  /** The counter following the sale; null when staged on the kiosk itself. */
  counterId: number | null;
  valorGasto: number;
  itens: readonly SaleItem[] | null;
  senha: string;
}

export type StageOutcome =
  | { ok: true; sale: StagedSale }
  | Extract<PasswordVerdict, { ok: false }>
  | { ok: false; reason: 'busy' };

/** Checks the attendant password, then stages the sale (one waiting sale per kiosk). */
export async function stageSale(deps: KioskDeps, request: StageRequest): Promise<StageOutcome> {
  const password = await checkAttendantPassword(deps, request.terminalId, request.senha);
  if (!password.ok) return password;
  const staged = await deps.sales.stage({
    ...(request.id === undefined ? {} : { id: request.id }),
    kioskId: request.kioskId,
    counterId: request.counterId,
    valorGasto: request.valorGasto,
    itens: request.itens,
    password: request.senha,
  });
  return staged.ok ? staged : { ok: false, reason: 'busy' };
}

/** A sale this counter staged, or null (another terminal's sales are not found). */
export async function counterSale(
  deps: Pick<KioskDeps, 'sales'>,
  counterId: number,
  saleId: string,
): Promise<StagedSale | null> {
  const s = await deps.sales.get(saleId);
  return s !== null && s.counter_id === counterId ? s : null;
}

/** Cancels a waiting sale; when it is no longer waiting, the sale as it is and why. */
export async function cancelSale(
  deps: Pick<KioskDeps, 'sales'>,
  s: StagedSale,
): Promise<{ ok: true; sale: StagedSale } | { ok: false; sale: StagedSale; message: string }> {
  const cancelled = await deps.sales.cancel(s);
  if (cancelled !== null) return { ok: true, sale: cancelled };
  const now = (await deps.sales.get(s.id)) ?? s;
  return {
    ok: false,
    sale: now,
    message: now.state === 'expirado' ? saleMessages.expired : 'O cliente já usou esta venda.',
  };
}
