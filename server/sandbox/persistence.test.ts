import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MIGRATIONS } from './db';
import { get, openTestSandbox, pontuarBody, post } from '../testing/sandbox';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-persist-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a file database', () => {
  test('is created with its parent folders, in WAL mode, migrated', () => {
    const dbPath = join(dir, 'a', 'b', 'sandbox.db');
    const sb = openTestSandbox(dbPath);
    sb.close();
    expect(existsSync(dbPath)).toBe(true);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const versions = db.prepare('SELECT version FROM schema_version ORDER BY version').all();
      expect(versions).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    } finally {
      db.close();
    }
  });

  test('keeps what was written across close and reopen, and is not seeded twice', async () => {
    const dbPath = join(dir, 'sandbox.db');
    const first = openTestSandbox(dbPath);
    const created = await post(first, '/fidelidade/pontuar', pontuarBody('+5511933332222', 12_345));
    expect(created.status).toBe(200);
    const totalBefore = (await get(first, '/recompensas')).json.data.total;
    first.close();

    // Reopened a day later: no new seed, same data.
    const second = openTestSandbox(dbPath, '2026-11-23T12:00:00-03:00');
    try {
      const c = await post(second, '/clientes/buscar', { celular: '+5511933332222' });
      expect(c.status).toBe(200);
      expect(c.json.data).toMatchObject({
        id_cliente: created.json.data.id_cliente,
        compras: 1,
        receita: 123.45,
        carteira: { saldo: 23 },
        conquistados_premio_fidelidade: 1,
      });
      expect((await get(second, '/recompensas')).json.data.total).toBe(totalBefore);
      const maria = await post(second, '/clientes/buscar', { id_cliente: 1 });
      expect(maria.json.data.carteira.saldo).toBe(75);
      const next = await post(second, '/clientes/cadastrar', { celular: '+5511900001111' });
      expect(next.json.data.id_cliente).toBe(created.json.data.id_cliente + 1);
    } finally {
      second.close();
    }
  });

  test('close is idempotent', () => {
    const sb = openTestSandbox(join(dir, 'x.db'));
    sb.close();
    expect(() => sb.close()).not.toThrow();
  });
});
