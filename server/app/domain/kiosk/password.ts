/**
 * The attendant password a kiosk asks before staging a sale or leaving kiosk mode, and the
 * counter before sending one: checked with the service, under the terminal's lockout (a
 * reservation counted before the check, so parallel guesses cannot pass the limit either).
 */
import { recordFailure, recordSuccess, refundFailure } from '../../../store';
import type { KioskDeps } from './deps';

export type PasswordVerdict =
  | { ok: true }
  | { ok: false; reason: 'wrong' }
  /** `started`: this very attempt locked the terminal (the others found it locked). */
  | { ok: false; reason: 'locked'; retryAfterMs: number; started?: boolean }
  | { ok: false; reason: 'unavailable' };

export async function checkAttendantPassword(
  deps: Pick<KioskDeps, 'store' | 'service' | 'limits'>,
  terminalId: number,
  senha: string,
): Promise<PasswordVerdict> {
  const { store } = deps;
  const key = `senha:terminal:${terminalId}`;
  const reserved = await recordFailure(store, key, deps.limits.password);
  const locked = (until: number, started = false): PasswordVerdict => ({
    ok: false,
    reason: 'locked',
    retryAfterMs: until - store.now(),
    ...(started ? { started } : {}),
  });
  if (!reserved.counted) return locked(reserved.lockedUntil!);
  let verdict: 'ok' | 'wrong';
  try {
    verdict = await deps.service.checkPassword(senha);
  } catch {
    await refundFailure(store, key);
    return { ok: false, reason: 'unavailable' };
  }
  if (verdict === 'ok') {
    await recordSuccess(store, key);
    return { ok: true };
  }
  if (reserved.lockedUntil !== null) return locked(reserved.lockedUntil, true);
  return { ok: false, reason: 'wrong' };
}
