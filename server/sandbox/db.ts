// The sandbox's SQLite database: opening, pragmas and migrations.
//
// Migrations are ordered SQL steps recorded in `schema_version`. They run inside one
// IMMEDIATE transaction, so two processes opening the same new file (`npm run sandbox` and
// the app server) cannot both migrate it; the one that waits finds the work done.
//
// Instants are stored as epoch milliseconds (INTEGER); São Paulo text is made on output.

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** SQL of floor(ms / day) for an integer column (SQLite's `/` truncates toward zero). */
export function dayOf(ms: string): string {
  return `((${ms} - ((${ms} % 86400000) + 86400000) % 86400000) / 86400000)`;
}

/** SQL min/max that ignore a NULL side. */
const widen = (fn: 'min' | 'max', col: string, value: string): string =>
  `${fn}(COALESCE(${col}, ${value}), COALESCE(${value}, ${col}))`;

function upsertSummary(row: 'NEW'): string {
  return `INSERT INTO premios_cliente_resumo (estabelecimento_id, dia, premio_id, status, n,
            valido_min, valido_max, resgate_min, resgate_max, estorno_min, estorno_max)
          VALUES (${row}.estabelecimento_id, ${dayOf(`${row}.data_conquista_ms`)}, ${row}.premio_id,
            ${row}.status, 1, ${row}.valido_ate_ms, ${row}.valido_ate_ms, ${row}.data_resgate_ms,
            ${row}.data_resgate_ms, ${row}.estornado_em_ms, ${row}.estornado_em_ms)
          ON CONFLICT (estabelecimento_id, dia, premio_id, status) DO UPDATE SET
            n = n + 1,
            valido_min = ${widen('min', 'valido_min', 'excluded.valido_min')},
            valido_max = ${widen('max', 'valido_max', 'excluded.valido_max')},
            resgate_min = ${widen('min', 'resgate_min', 'excluded.resgate_min')},
            resgate_max = ${widen('max', 'resgate_max', 'excluded.resgate_max')},
            estorno_min = ${widen('min', 'estorno_min', 'excluded.estorno_min')},
            estorno_max = ${widen('max', 'estorno_max', 'excluded.estorno_max')};`;
}

function decrementSummary(row: 'OLD'): string {
  return `UPDATE premios_cliente_resumo SET n = n - 1
          WHERE estabelecimento_id = ${row}.estabelecimento_id
            AND dia = ${dayOf(`${row}.data_conquista_ms`)}
            AND premio_id = ${row}.premio_id AND status = ${row}.status;`;
}

/** premios_cliente_resgate's day of data_resgate starts at 03:00 UTC (São Paulo's midnight). */
export const REDEEMED_DAY_SHIFT_MS = 3 * 3_600_000;

function redeemedKey(row: 'NEW' | 'OLD'): string[] {
  return [
    `${row}.estabelecimento_id`,
    dayOf(`${row}.data_conquista_ms`),
    dayOf(`(${row}.data_resgate_ms - ${REDEEMED_DAY_SHIFT_MS})`),
    `${row}.premio_id`,
  ];
}

function upsertRedeemed(row: 'NEW'): string {
  return `INSERT INTO premios_cliente_resgate (estabelecimento_id, dia, dia_resgate, premio_id, n)
          VALUES (${redeemedKey(row).join(', ')}, 1)
          ON CONFLICT (estabelecimento_id, dia, dia_resgate, premio_id) DO UPDATE SET n = n + 1;`;
}

function decrementRedeemed(row: 'OLD'): string {
  const [est, dia, resgate, premio] = redeemedKey(row);
  return `UPDATE premios_cliente_resgate SET n = n - 1
          WHERE estabelecimento_id = ${est} AND dia = ${dia} AND dia_resgate = ${resgate}
            AND premio_id = ${premio};`;
}

/**
 * A trigger keeping `premios_cliente_resgate` in step with `premios_cliente`: a redeemed
 * record that comes (`NEW`) adds one to its day's count, one that goes (`OLD`) takes one off.
 */
function redeemedTrigger(name: string, event: 'INSERT' | 'UPDATE' | 'DELETE', row: 'NEW' | 'OLD') {
  return `CREATE TRIGGER premios_cliente_resgate_${name} AFTER ${event} ON premios_cliente
      WHEN ${row}.data_resgate_ms IS NOT NULL BEGIN
        ${row === 'NEW' ? upsertRedeemed(row) : decrementRedeemed(row)}
      END;`;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE estabelecimentos (
        id                 INTEGER PRIMARY KEY,
        nome               TEXT    NOT NULL,
        app_token          TEXT    NOT NULL,
        access_token       TEXT    NOT NULL UNIQUE,
        senha_atendente    TEXT    NOT NULL,
        centavos_por_ponto INTEGER NOT NULL CHECK (centavos_por_ponto > 0),
        carencia           INTEGER NOT NULL DEFAULT 0 CHECK (carencia IN (0, 1))
      );

      -- Reward definitions. premio_fidelidade has a point cost; premio_campanha a term that
      -- an item description must contain; the other categories only exist in seeded data.
      CREATE TABLE premios (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        estabelecimento_id INTEGER NOT NULL REFERENCES estabelecimentos (id),
        categoria          TEXT    NOT NULL CHECK (categoria IN
                             ('premio_fidelidade', 'brinde_roleta', 'premio_surpresa',
                              'premio_campanha', 'premio_game')),
        nome               TEXT    NOT NULL,
        nome_busca         TEXT    NOT NULL, -- lower-cased nome, for q
        custo_pontos       INTEGER CHECK (custo_pontos IS NULL OR custo_pontos > 0),
        termo_campanha     TEXT
      );

      CREATE TABLE clientes (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        estabelecimento_id INTEGER NOT NULL REFERENCES estabelecimentos (id),
        celular            TEXT    NOT NULL,
        cpf                TEXT    NOT NULL,
        nome               TEXT    NOT NULL,
        email              TEXT    NOT NULL,
        data_nascimento    TEXT,
        genero             TEXT,
        cep                TEXT,
        endereco           TEXT,
        bairro             TEXT,
        cidade             TEXT,
        uf                 TEXT,
        data_cadastro_ms   INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX clientes_celular ON clientes (estabelecimento_id, celular);
      CREATE UNIQUE INDEX clientes_cpf ON clientes (estabelecimento_id, cpf);

      -- One row per posting (id = id_ponto).
      CREATE TABLE pontos (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        estabelecimento_id INTEGER NOT NULL REFERENCES estabelecimentos (id),
        cliente_id         INTEGER NOT NULL REFERENCES clientes (id),
        valor_gasto        INTEGER NOT NULL CHECK (valor_gasto > 0),
        pontos             INTEGER NOT NULL CHECK (pontos >= 0),
        itens_json         TEXT    NOT NULL DEFAULT '[]',
        criado_em_ms       INTEGER NOT NULL
      );
      CREATE INDEX pontos_cliente ON pontos (cliente_id);

      -- Wallet credits (id = id_cartela_cliente), one per posting. matura_ms is NULL when the
      -- establishment has no carencia; expira_ms is the first instant after data_validade.
      CREATE TABLE cartela (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        cliente_id         INTEGER NOT NULL REFERENCES clientes (id),
        ponto_id           INTEGER NOT NULL UNIQUE REFERENCES pontos (id),
        tipo               TEXT    NOT NULL DEFAULT 'credito' CHECK (tipo = 'credito'),
        pontos             INTEGER NOT NULL CHECK (pontos >= 0),
        data_ms            INTEGER NOT NULL,
        matura_ms          INTEGER,
        data_validade      TEXT    NOT NULL,
        expira_ms          INTEGER NOT NULL
      );
      CREATE INDEX cartela_cliente ON cartela (cliente_id);

      CREATE TABLE premios_cliente (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        estabelecimento_id INTEGER NOT NULL REFERENCES estabelecimentos (id),
        cliente_id         INTEGER NOT NULL REFERENCES clientes (id),
        premio_id          INTEGER NOT NULL REFERENCES premios (id),
        ponto_id           INTEGER REFERENCES pontos (id),
        data_conquista_ms  INTEGER NOT NULL,
        valido_ate_ms      INTEGER NOT NULL,
        data_resgate_ms    INTEGER,
        estornado_em_ms    INTEGER,
        -- 'expirado' is never stored: a pendente_resgate past valido_ate reads as expirado.
        status             TEXT    NOT NULL CHECK (status IN ('pendente_resgate', 'resgatado', 'estornado'))
      );
      CREATE INDEX premios_cliente_lista
        ON premios_cliente (estabelecimento_id, data_conquista_ms DESC, id DESC);
      CREATE INDEX premios_cliente_cliente ON premios_cliente (cliente_id);

      -- Points debited from the wallet by a loyalty reward; consumed FIFO when read.
      CREATE TABLE debitos (
        id                 INTEGER PRIMARY KEY AUTOINCREMENT,
        cliente_id         INTEGER NOT NULL REFERENCES clientes (id),
        premio_cliente_id  INTEGER NOT NULL REFERENCES premios_cliente (id),
        pontos             INTEGER NOT NULL CHECK (pontos > 0),
        momento_ms         INTEGER NOT NULL
      );
      CREATE INDEX debitos_cliente ON debitos (cliente_id);

      CREATE TABLE sandbox_meta (
        chave TEXT PRIMARY KEY,
        valor TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'reward list indexes and per-day counts',
    // premios_cliente_lista covers every column a list page reads or filters on, so pages
    // and the exact count of a partial day never touch the table. premios_cliente_resumo
    // keeps, per establishment, UTC day of data_conquista, reward and stored status, how
    // many records there are and the range of their other dates (widened, never narrowed,
    // so a range always holds every record of its group): whole days are counted from it
    // and a deep page starts from the day that holds it. Triggers keep it exact.
    sql: `
      DROP INDEX premios_cliente_lista;
      CREATE INDEX premios_cliente_lista ON premios_cliente
        (estabelecimento_id, data_conquista_ms DESC, id DESC, premio_id, status, valido_ate_ms,
         data_resgate_ms, estornado_em_ms, cliente_id);
      DROP INDEX premios_cliente_cliente;
      CREATE INDEX premios_cliente_cliente ON premios_cliente
        (cliente_id, data_conquista_ms DESC, id DESC);

      CREATE TABLE premios_cliente_resumo (
        estabelecimento_id INTEGER NOT NULL,
        dia                INTEGER NOT NULL, -- floor(data_conquista_ms / 86400000)
        premio_id          INTEGER NOT NULL,
        status             TEXT    NOT NULL,
        n                  INTEGER NOT NULL,
        valido_min         INTEGER,
        valido_max         INTEGER,
        resgate_min        INTEGER,
        resgate_max        INTEGER,
        estorno_min        INTEGER,
        estorno_max        INTEGER,
        PRIMARY KEY (estabelecimento_id, dia, premio_id, status)
      ) WITHOUT ROWID;

      CREATE TRIGGER premios_cliente_resumo_insert AFTER INSERT ON premios_cliente BEGIN
        ${upsertSummary('NEW')}
      END;
      CREATE TRIGGER premios_cliente_resumo_update AFTER UPDATE ON premios_cliente BEGIN
        ${decrementSummary('OLD')}
        ${upsertSummary('NEW')}
      END;
      CREATE TRIGGER premios_cliente_resumo_delete AFTER DELETE ON premios_cliente BEGIN
        ${decrementSummary('OLD')}
      END;

      INSERT INTO premios_cliente_resumo
      SELECT estabelecimento_id, ${dayOf('data_conquista_ms')} AS d, premio_id, status, COUNT(*),
             MIN(valido_ate_ms), MAX(valido_ate_ms), MIN(data_resgate_ms), MAX(data_resgate_ms),
             MIN(estornado_em_ms), MAX(estornado_em_ms)
      FROM premios_cliente GROUP BY estabelecimento_id, d, premio_id, status;
    `,
  },
  {
    version: 3,
    name: 'points left per credit',
    // cartela.restante: the credit's points left once every debit of the customer is replayed
    // (rules/wallet.ts remainingAfterDebits), kept by store.ts so a posting reads only the
    // credits with points left. NULL: not computed yet (credits written before this
    // migration); the customer's next posting replays the wallet once and fills them.
    sql: `
      ALTER TABLE cartela ADD COLUMN restante INTEGER;
      CREATE INDEX cartela_aberta ON cartela (cliente_id, data_ms, id) WHERE restante > 0;
      CREATE INDEX cartela_sem_restante ON cartela (cliente_id) WHERE restante IS NULL;
      CREATE INDEX debitos_cliente_momento ON debitos (cliente_id, momento_ms);
    `,
  },
  {
    version: 4,
    name: 'reward counts per day won and day redeemed',
    // A data_resgate range cuts through the ~30 days of records redeemed around each of its
    // ends (a reward is redeemed within its validity), so premios_cliente_resumo leaves those
    // days partial. premios_cliente_resgate counts records per UTC day won, São Paulo standard
    // day redeemed (floor((data_resgate_ms - 3 h) / day): a range bound at a UTC-3 local
    // midnight falls between two of them) and reward: such a day's exact count is a sum of a
    // few hundred rows. Only records with a data_resgate (status resgatado) are counted.
    sql: `
      CREATE TABLE premios_cliente_resgate (
        estabelecimento_id INTEGER NOT NULL,
        dia                INTEGER NOT NULL, -- floor(data_conquista_ms / 86400000)
        dia_resgate        INTEGER NOT NULL, -- floor((data_resgate_ms - 10800000) / 86400000)
        premio_id          INTEGER NOT NULL,
        n                  INTEGER NOT NULL,
        PRIMARY KEY (estabelecimento_id, dia, dia_resgate, premio_id)
      ) WITHOUT ROWID;

      ${redeemedTrigger('insert', 'INSERT', 'NEW')}
      ${redeemedTrigger('update_old', 'UPDATE', 'OLD')}
      ${redeemedTrigger('update_new', 'UPDATE', 'NEW')}
      ${redeemedTrigger('delete', 'DELETE', 'OLD')}

      INSERT INTO premios_cliente_resgate
      SELECT estabelecimento_id, ${dayOf('data_conquista_ms')} AS d,
             ${dayOf(`(data_resgate_ms - ${REDEEMED_DAY_SHIFT_MS})`)} AS r, premio_id, COUNT(*)
      FROM premios_cliente WHERE data_resgate_ms IS NOT NULL
      GROUP BY estabelecimento_id, d, r, premio_id;
    `,
  },
];

export function currentVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as
    { v: number | null } | undefined;
  return row?.v ?? 0;
}

/**
 * Opens (creating parent folders) and configures the database. `:memory:` is for tests.
 */
export function openDatabase(dbPath: string): Db {
  if (dbPath !== ':memory:' && !dbPath.startsWith('file:')) {
    mkdirSync(dirname(dbPath), { recursive: true });
  }
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 5000');
  if (dbPath !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Applies the missing migrations, then `afterFresh` when the database was new (version 0),
 * all in one IMMEDIATE transaction. Returns the version found before migrating.
 */
export function migrate(db: Db, afterFresh: (db: Db) => void, now: number): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)',
  );
  const run = db.transaction(() => {
    const from = currentVersion(db);
    const record = db.prepare(
      'INSERT INTO schema_version (version, name, applied_at_ms) VALUES (?, ?, ?)',
    );
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, now);
    }
    if (from === 0) afterFresh(db);
    return from;
  });
  return run.immediate();
}
