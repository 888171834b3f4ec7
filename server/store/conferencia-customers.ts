/** A conferência run's customers: those still to re-read, each one's reading and findings. */
import type { Store } from './store';

export interface RunCustomer {
  customerKey: string;
  idCliente: number | null;
  state: 'pendente' | 'lido';
  confirmed: number;
  /** What was found for this customer (the domain's shape, stored as JSON). */
  findings: unknown[];
}

export async function pendingCustomers(store: Store, runId: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom('reconciliation_customers')
    .select('customer_key')
    .where('run_id', '=', runId)
    .where('state', '=', 'pendente')
    .orderBy('customer_key')
    .execute();
  return rows.map((r) => r.customer_key);
}

/**
 * Records one customer read, and the reads it took, while the run is this owner's; false
 * (nothing written) when it is not.
 */
export async function saveCustomer(
  store: Store,
  runId: number,
  owner: string,
  c: {
    customerKey: string;
    idCliente: number | null;
    confirmed: number;
    findings: unknown[];
    reads: number;
  },
): Promise<boolean> {
  return store.transaction(async (trx) => {
    const run = await trx
      .updateTable('reconciliation_runs')
      .set((eb) => ({ done: eb('done', '+', 1), reads: eb('reads', '+', c.reads) }))
      .where('id', '=', runId)
      .where('owner', '=', owner)
      .where('state', '=', 'em andamento')
      .executeTakeFirst();
    if (Number(run.numUpdatedRows) === 0) return false;
    const row = await trx
      .updateTable('reconciliation_customers')
      .set({
        id_cliente: c.idCliente,
        state: 'lido',
        confirmed: c.confirmed,
        findings: JSON.stringify(c.findings),
        read_at: store.now(),
      })
      .where('run_id', '=', runId)
      .where('customer_key', '=', c.customerKey)
      .where('state', '=', 'pendente')
      .executeTakeFirst();
    if (Number(row.numUpdatedRows) === 0) throw new Error('customer already read');
    return true;
  });
}

/** Every customer of a run, read or not. */
export async function runCustomers(store: Store, runId: number): Promise<RunCustomer[]> {
  const rows = await store.db
    .selectFrom('reconciliation_customers')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('customer_key')
    .execute();
  return rows.map((r) => ({
    customerKey: r.customer_key,
    idCliente: r.id_cliente === null ? null : Number(r.id_cliente),
    state: r.state === 'lido' ? 'lido' : 'pendente',
    confirmed: Number(r.confirmed),
    findings: r.findings === null ? [] : (JSON.parse(r.findings) as unknown[]),
  }));
}
