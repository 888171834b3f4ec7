// A sandbox database at a big chain's scale, for `npm run bench -- --scale`: the real sandbox
// (same migrations, demo seed included), then one million more customers and two million
// reward records of establishment 1 bulk-inserted in one transaction.
//
// The rows follow the sandbox's own rules: valid CPFs and unique E.164 mobiles, rewards of
// the demo reward definitions won over the two years before `nowMs`, each valid until
// rewardValidUntil(won); about half redeemed within their validity, some non-loyalty ones
// reversed, the rest pendente_resgate (read as expirado once past valido_ate).

import Database from 'better-sqlite3';
import { cpfCheckDigits } from '../server/sandbox/rules/cpf';
import { DAY_MS, rewardValidUntil } from '#contract/rules/time';
import { openSandbox } from '../server/sandbox/sandbox';
import { prng } from '../server/sandbox/seed';

export interface ScaleOptions {
  customers: number;
  rewards: number;
  /** Rewards are won over this many days before `nowMs`. */
  days: number;
  nowMs: number;
}

export interface ScaleDb {
  /** Phones, CPFs and ids of some bulk customers, spread over the whole table. */
  samples: { celular: string; cpf: string; id: number }[];
  customers: number;
  rewards: number;
  buildMs: number;
}

/** i ↦ a distinct 8-digit number for i < 10^8 (multiplication by a unit mod 10^8). */
const spread = (i: number): number => Number((BigInt(i) * 48_271_009n + 12_345n) % 100_000_000n);

export function bulkCelular(i: number): string {
  return `+55119${String(spread(i)).padStart(8, '0')}`;
}

export function bulkCpf(i: number): string {
  const nine = String(800_000_000 + ((spread(i) * 7) % 200_000_000));
  return nine + cpfCheckDigits(nine);
}

export function buildScaleDb(dbPath: string, o: ScaleOptions): ScaleDb {
  const started = performance.now();
  // The real sandbox creates the schema and the demo data.
  openSandbox({ dbPath, now: () => new Date(o.nowMs) }).close();

  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144'); // 256 MB while loading
  const rand = prng(1_000_003);
  const samples: ScaleDb['samples'] = [];
  let customers: number;
  try {
    const premios = db
      .prepare<[], { id: number; categoria: string }>(
        'SELECT id, categoria FROM premios WHERE estabelecimento_id = 1 ORDER BY id',
      )
      .all();
    // OR IGNORE: a generated phone or CPF that a seeded customer already has is skipped.
    const insertCliente = db.prepare(
      `INSERT OR IGNORE INTO clientes (estabelecimento_id, celular, cpf, nome, email, genero, data_cadastro_ms)
       VALUES (1, ?, ?, ?, 'invalido@invalido.com.br', 'NA', ?)`,
    );
    const insertReward = db.prepare(
      `INSERT INTO premios_cliente (estabelecimento_id, cliente_id, premio_id, ponto_id,
         data_conquista_ms, valido_ate_ms, data_resgate_ms, estornado_em_ms, status)
       VALUES (1, ?, ?, NULL, ?, ?, ?, ?, ?)`,
    );
    const sampleEvery = Math.max(1, Math.floor(o.customers / 200));
    const fill = db.transaction(() => {
      const cadastroFrom = o.nowMs - (o.days + 30) * DAY_MS;
      const ids = new Int32Array(o.customers);
      let inserted = 0;
      for (let i = 0; i < o.customers; i++) {
        const celular = bulkCelular(i);
        const cpf = bulkCpf(i);
        const info = insertCliente.run(celular, cpf, `CLIENTE ${i + 1}`, cadastroFrom + i * 1000);
        if (info.changes === 0) continue;
        const id = Number(info.lastInsertRowid);
        ids[inserted++] = id;
        if (i % sampleEvery === 0) samples.push({ celular, cpf, id });
      }
      // Rewards in the order they were won; valido_ate computed once per distinct day.
      const from = o.nowMs - o.days * DAY_MS;
      const step = (o.days * DAY_MS) / o.rewards;
      const validity = new Map<number, number>();
      for (let i = 0; i < o.rewards; i++) {
        const won = Math.floor(from + i * step);
        // São Paulo has kept UTC-3 all year since 2019: its calendar day is this key.
        const dayKey = Math.floor((won - 3 * 3_600_000) / DAY_MS);
        let validUntil = validity.get(dayKey);
        if (validUntil === undefined) {
          validUntil = rewardValidUntil(won);
          validity.set(dayKey, validUntil);
        }
        const premio = premios[Math.floor(rand() * premios.length)];
        if (premio === undefined) throw new Error('no reward definitions');
        const cliente = ids[Math.floor(rand() * inserted)] ?? 1;
        const room = Math.min(validUntil, o.nowMs - 60_000) - won;
        const roll = rand();
        let status = 'pendente_resgate';
        let resgate: number | null = null;
        let estorno: number | null = null;
        if (room > 120_000 && premio.categoria !== 'premio_fidelidade' && roll < 0.06) {
          status = 'estornado';
          estorno = won + 60_000 + Math.floor(rand() * Math.min(room - 60_000, 2 * DAY_MS));
        } else if (room > 120_000 && roll < 0.5) {
          status = 'resgatado';
          resgate = won + 60_000 + Math.floor(rand() * (room - 60_000));
        }
        insertReward.run(cliente, premio.id, won, validUntil, resgate, estorno, status);
      }
      return inserted;
    });
    customers = fill();
    db.pragma('optimize');
  } finally {
    db.close();
  }
  return {
    samples,
    customers,
    rewards: o.rewards,
    buildMs: performance.now() - started,
  };
}
