/** The vigilância's rule settings per store, and the nights it re-evaluated. */
import type { Store } from './store';

/** Each rule's settings of a store, and the nights' claims and what they re-read. */
export function rulesAndNights(store: Store) {
  const { db } = store;
  return {
    async ruleSettings(establishmentId: number) {
      return db
        .selectFrom('vigilancia_rules')
        .selectAll()
        .where('establishment_id', '=', establishmentId)
        .execute();
    },

    async saveRule(
      establishmentId: number,
      rule: string,
      enabled: boolean,
      params: Record<string, number>,
      by: string | null,
    ): Promise<void> {
      const values = {
        establishment_id: establishmentId,
        rule,
        enabled: enabled ? 1 : 0,
        params: JSON.stringify(params),
        updated_at: store.now(),
        updated_by: by,
      };
      await db
        .insertInto('vigilancia_rules')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['establishment_id', 'rule']).doUpdateSet({
            enabled: values.enabled,
            params: values.params,
            updated_at: values.updated_at,
            updated_by: values.updated_by,
          }),
        )
        .execute();
    },

    /** The keys of a store's posted points (and rewards handed over) in [from, to). */
    async settledKeys(establishmentId: number, from: number, to: number): Promise<string[]> {
      const rows = await db
        .selectFrom('posting_journal')
        .select('key')
        .where('establishment_id', '=', establishmentId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('state', '=', 'lançado')
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.key);
    },

    /** Claims a night's re-evaluation: true for the one process that inserts it. */
    async claimNight(establishmentId: number, day: string): Promise<boolean> {
      const r = await db
        .insertInto('vigilancia_nights')
        .values({
          establishment_id: establishmentId,
          day,
          started_at: store.now(),
          finished_at: null,
        })
        .onConflict((oc) => oc.columns(['establishment_id', 'day']).doNothing())
        .returning('day')
        .executeTakeFirst();
      return r !== undefined;
    },

    async finishNight(establishmentId: number, day: string): Promise<void> {
      await db
        .updateTable('vigilancia_nights')
        .set({ finished_at: store.now() })
        .where('establishment_id', '=', establishmentId)
        .where('day', '=', day)
        .execute();
    },
  };
}
