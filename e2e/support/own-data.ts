// What a spec writes straight into its own server's databases, behind the app's back: a
// posting the journal holds as settled on another day, a credit the service loses.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from '@playwright/test';
import { createJournalStore, openStore } from '../../server/store';
import type { OwnServer } from './own-server';

/**
 * A posting by `terminalId` settled at `at` (of `cents`, earning `points`), written to the
 * app's journal as the server would have, for a customer not in the seed (+5531991234567).
 */
export async function settledPostingAt(
  own: OwnServer,
  posting: { terminalId: string; at: Date; cents: number; points: number; customerName: string },
): Promise<void> {
  const { terminalId, at, cents, points, customerName } = posting;
  const store = await openStore({ sqlitePath: own.env.APP_DB! });
  try {
    const journal = createJournalStore(store);
    const key = randomUUID();
    const owner = 'e2e';
    await journal.create({
      key,
      establishmentId: 1,
      terminalId,
      requestId: key,
      fingerprint: 'e2e',
      customerKey: '+5531991234567',
      customerName,
      amount: cents,
      owner,
      leaseUntil: Date.now() + 3_600_000,
      createdAt: at.getTime(),
    });
    const settled = await journal.update(
      key,
      owner,
      { state: 'lançado', points, settledAt: at.getTime(), endedAt: at.getTime() },
      at.getTime(),
    );
    expect(settled).toBe(true);
  } finally {
    await store.close();
  }
}

/**
 * The service loses the credit of `points` it gave the customer at `celular` within the last
 * hour (deleted straight in the sandbox's database): exactly one such credit.
 */
export function loseRecentCredit(own: OwnServer, celular: string, points: number): void {
  const db = new Database(own.env.SANDBOX_DB!);
  try {
    const customer = db.prepare('select id from clientes where celular = ?').get(celular) as {
      id: number;
    };
    const removed = db
      .prepare('delete from cartela where cliente_id = ? and pontos = ? and data_ms > ?')
      .run(customer.id, points, Date.now() - 3_600_000);
    expect(removed.changes).toBe(1);
  } finally {
    db.close();
  }
}
