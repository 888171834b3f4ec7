/**
 * A counter's customer display (migration 0011, `terminals.pdv_kiosk_id`): the kiosk facing
 * the counter's customers, to which every PDV sale for that counter is staged by itself. Set by
 * a manager (`npm run terminal -- set ID --pdv-direto-quiosque KIOSK`).
 */
import type { Store } from './store';

export type SetDisplayOutcome = 'ok' | 'no-counter' | 'no-kiosk' | 'other-store';

/** Sets (or, `kioskId` null, clears) the counter's customer display. */
export async function setPdvDisplay(
  store: Store,
  counterId: number,
  kioskId: number | null,
): Promise<SetDisplayOutcome> {
  const counter = await store.db
    .selectFrom('terminals')
    .select('establishment_id')
    .where('id', '=', counterId)
    .where('role', 'in', ['caixa', 'gerente'])
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (counter === undefined) return 'no-counter';
  if (kioskId !== null) {
    const kiosk = await store.db
      .selectFrom('terminals')
      .select('establishment_id')
      .where('id', '=', kioskId)
      .where('role', '=', 'quiosque')
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (kiosk === undefined) return 'no-kiosk';
    // A customer display stays inside its counter's store.
    if (kiosk.establishment_id !== counter.establishment_id) return 'other-store';
  }
  const updated = await store.db
    .updateTable('terminals')
    .set({ pdv_kiosk_id: kioskId })
    .where('id', '=', counterId)
    .where('role', 'in', ['caixa', 'gerente'])
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return updated === undefined ? 'no-counter' : 'ok';
}

/**
 * The counter's customer display when it is set and the kiosk is enrolled and not revoked;
 * null otherwise (the sale then waits at the counter, as without the setting).
 */
export async function pdvDisplayOf(store: Store, counterId: number): Promise<number | null> {
  const row = await store.db
    .selectFrom('terminals as c')
    .innerJoin('terminals as k', 'k.id', 'c.pdv_kiosk_id')
    .select('k.id')
    .where('c.id', '=', counterId)
    .where('k.role', '=', 'quiosque')
    .where('k.revoked_at', 'is', null)
    .where('k.enrolled_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('k.establishment_id', '=', eb.ref('c.establishment_id')),
        eb.and([eb('k.establishment_id', 'is', null), eb('c.establishment_id', 'is', null)]),
      ]),
    )
    .executeTakeFirst();
  return row === undefined ? null : Number(row.id);
}

/** Every counter's display setting (counter id → kiosk id), for the terminal list. */
export async function pdvDisplays(store: Store): Promise<Map<number, number>> {
  const rows = await store.db
    .selectFrom('terminals')
    .select(['id', 'pdv_kiosk_id'])
    .where('pdv_kiosk_id', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.pdv_kiosk_id)]));
}
