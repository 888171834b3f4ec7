// The reward list (GET /recompensas) at scale: a page of an establishment's reward records,
// newest first, and the total matching the filters, without reading every matching row.
//
// - Only the active filters are written into the SQL, so the planner can use the indexes.
// - Totals come from `premios_cliente_resumo` (per UTC day of data_conquista, reward and
//   stored status: a count and the range of the other dates). A group counts whole when all
//   its records match for sure, not at all when none can, and a day with any group in
//   between ("partial": a date range's edge, a day whose rewards expire around now) is
//   counted exactly over the covering index, one day only.
// - A page starts from the day that holds its first record (running sums of the days'
//   counts), so page 100,000 skips at most one day of records, never 100,000 pages.
// - A customer's list (`id_cliente`) is small: it is read through the customer's index.
//
// A group's date ranges ignore NULLs; that is exact because the stored status decides which
// dates a record has (pendente_resgate: neither, resgatado: data_resgate, estornado:
// estornado_em; store.ts only moves a record out of pendente_resgate, setting that date).
//
// `expirado` is never stored: a `pendente_resgate` record whose valido_ate second has passed
// (`valido_ate_ms + 1000 <= now`) reads as expirado, and filters follow that exactly.

import { REDEEMED_DAY_SHIFT_MS, type Db } from './db';
import type { Category, Status, StoredStatus } from './rules/rewards';
import { DAY_MS, startOfLocalDay, startOfNextLocalDay } from '#contract/rules/time';
import type { RewardQuery } from '#contract/rules/reward-query';

export interface RewardRow {
  id: number;
  cliente_id: number;
  premio_id: number;
  valido_ate_ms: number;
  data_resgate_ms: number | null;
  data_conquista_ms: number;
  estornado_em_ms: number | null;
  status: StoredStatus;
  categoria: Category;
  nome: string;
}

type Params = Record<string, number | string>;

/** The filters of a query, resolved to columns and instants. */
interface Plan {
  est: number;
  cliente: number | null;
  /** null: any reward; else the ids the categoria and q leave (maybe none). */
  premios: number[] | null;
  status: Status | null;
  now: number;
  /** The column the date range applies to, and its bounds (inclusive, exclusive). */
  campo: 'data_conquista_ms' | 'valido_ate_ms' | 'data_resgate_ms' | 'estornado_em_ms';
  desde: number | null;
  ate: number | null;
}

const CAMPO: Record<RewardQuery['filtrar_por'], Plan['campo']> = {
  data_conquista: 'data_conquista_ms',
  valido_ate: 'valido_ate_ms',
  data_resgate: 'data_resgate_ms',
  estornado_em: 'estornado_em_ms',
};

/** The summary's min/max columns of each date column. */
const RANGE: Record<Exclude<Plan['campo'], 'data_conquista_ms'>, [string, string]> = {
  valido_ate_ms: ['valido_min', 'valido_max'],
  data_resgate_ms: ['resgate_min', 'resgate_max'],
  estornado_em_ms: ['estorno_min', 'estorno_max'],
};

const floorDay = (ms: number): number => Math.floor(ms / DAY_MS);

/**
 * The WHERE terms a record must meet, over premios_cliente's columns (no table alias).
 * `conquista`: a window of data_conquista_ms (a day, the days of a page) the statement reads;
 * it is intersected with a data_conquista range filter, so the statement has one lower and
 * one upper bound on that column and the index range is exactly the window (with two of
 * each, the planner may bound the scan by the filter's and read the whole range).
 */
function rowTerms(p: Plan, params: Params, conquista?: { lo: number; hi: number }): string[] {
  const terms = ['estabelecimento_id = @est'];
  params.est = p.est;
  if (p.cliente !== null) {
    terms.push('cliente_id = @cliente');
    params.cliente = p.cliente;
  }
  if (p.premios !== null) terms.push(`premio_id IN (${p.premios.join(', ')})`);
  if (p.status !== null) {
    params.now = p.now;
    if (p.status === 'expirado') {
      terms.push("status = 'pendente_resgate'", 'valido_ate_ms + 1000 <= @now');
    } else if (p.status === 'pendente_resgate') {
      terms.push("status = 'pendente_resgate'", 'valido_ate_ms + 1000 > @now');
    } else {
      terms.push('status = @status');
      params.status = p.status;
    }
  }
  let desde = p.desde;
  let ate = p.ate;
  if (conquista !== undefined) {
    let lo = conquista.lo;
    let hi = conquista.hi;
    if (p.campo === 'data_conquista_ms') {
      if (desde !== null) lo = Math.max(lo, desde);
      if (ate !== null) hi = Math.min(hi, ate);
      desde = null;
      ate = null;
    }
    terms.push('data_conquista_ms >= @conquista_lo', 'data_conquista_ms < @conquista_hi');
    params.conquista_lo = lo;
    params.conquista_hi = hi;
  }
  if (desde !== null) {
    terms.push(`${p.campo} >= @desde`);
    params.desde = desde;
  }
  if (ate !== null) {
    terms.push(`${p.campo} < @ate`);
    params.ate = ate;
  }
  return terms;
}

/**
 * Per day (newest first): records of the groups that match whole, and whether some group of
 * the day may match in part. Each term classifies a group 0 (none match), 1 (some may), or
 * 2 (all match); a group's class is the least of its terms.
 */
function summarySql(p: Plan, params: Params): string {
  const where = ['estabelecimento_id = @est', 'n > 0'];
  const classes = ['2'];
  params.est = p.est;
  if (p.premios !== null) where.push(`premio_id IN (${p.premios.join(', ')})`);
  if (p.status !== null) {
    params.now = p.now;
    if (p.status === 'expirado' || p.status === 'pendente_resgate') {
      where.push("status = 'pendente_resgate'");
      const [all, none] =
        p.status === 'expirado'
          ? ['valido_max + 1000 <= @now', 'valido_min + 1000 > @now']
          : ['valido_min + 1000 > @now', 'valido_max + 1000 <= @now'];
      classes.push(`CASE WHEN ${all} THEN 2 WHEN ${none} THEN 0 ELSE 1 END`);
    } else {
      where.push('status = @status');
      params.status = p.status;
    }
  }
  if (p.campo === 'data_conquista_ms') {
    if (p.desde !== null) {
      where.push('dia >= @dia_desde');
      params.dia_desde = floorDay(p.desde);
      params.desde = p.desde;
      classes.push(`CASE WHEN dia * ${DAY_MS} >= @desde THEN 2 ELSE 1 END`);
    }
    if (p.ate !== null) {
      where.push('dia <= @dia_ate');
      params.dia_ate = floorDay(p.ate - 1);
      params.ate = p.ate;
      classes.push(`CASE WHEN (dia + 1) * ${DAY_MS} <= @ate THEN 2 ELSE 1 END`);
    }
  } else if (p.desde !== null || p.ate !== null) {
    const [lo, hi] = RANGE[p.campo];
    const inside: string[] = [];
    const outside: string[] = [`${lo} IS NULL`];
    if (p.desde !== null) {
      params.desde = p.desde;
      inside.push(`${lo} >= @desde`);
      outside.push(`${hi} < @desde`);
    }
    if (p.ate !== null) {
      params.ate = p.ate;
      inside.push(`${hi} < @ate`);
      outside.push(`${lo} >= @ate`);
    }
    classes.push(
      `CASE WHEN ${outside.join(' OR ')} THEN 0 WHEN ${inside.join(' AND ')} THEN 2 ELSE 1 END`,
    );
  }
  const cls = classes.length === 1 ? '2' : `min(${classes.join(', ')})`;
  return `SELECT dia, SUM(CASE WHEN c = 2 THEN n ELSE 0 END) AS whole, MAX(c = 1) AS partial
          FROM (SELECT dia, n, ${cls} AS c FROM premios_cliente_resumo
                WHERE ${where.join(' AND ')})
          WHERE c > 0
          GROUP BY dia ORDER BY dia DESC`;
}

/** The statements a query runs; `list` also returns them for EXPLAIN QUERY PLAN. */
interface Statements {
  sql: string;
  params: Params;
}

export interface StatementPlan {
  sql: string;
  plan: string[];
}

/** Exact count of one day's matching records (over the covering index). */
function dayCount(p: Plan, dia: number, run: (s: Statements) => unknown): number {
  const params: Params = {};
  const terms = rowTerms(p, params, { lo: dia * DAY_MS, hi: (dia + 1) * DAY_MS });
  const sql = `SELECT COUNT(*) AS n FROM premios_cliente INDEXED BY premios_cliente_lista
               WHERE ${terms.join(' AND ')}`;
  return (run({ sql, params }) as { n: number } | undefined)?.n ?? 0;
}

/**
 * Exact counts of the partial days of a data_resgate range from premios_cliente_resgate, a
 * run of consecutive partial days per statement; null when the table cannot answer (other
 * filters, a bound that is not a São Paulo standard-time midnight).
 */
function redeemedCounts(
  p: Plan,
  days: readonly { dia: number; partial: number }[],
  all: (s: Statements) => unknown[],
): Map<number, number> | null {
  if (p.campo !== 'data_resgate_ms') return null;
  // Only resgatado records have a data_resgate: any other status filter matches none.
  if (p.status !== null && p.status !== 'resgatado') return null;
  const bucket = (ms: number): number | null =>
    (ms - REDEEMED_DAY_SHIFT_MS) % DAY_MS === 0 ? (ms - REDEEMED_DAY_SHIFT_MS) / DAY_MS : null;
  const from = p.desde === null ? null : bucket(p.desde);
  const to = p.ate === null ? null : bucket(p.ate);
  if ((p.desde !== null && from === null) || (p.ate !== null && to === null)) return null;
  const partial = days.filter((d) => d.partial).map((d) => d.dia); // newest first
  const counts = new Map<number, number>(partial.map((dia) => [dia, 0]));
  const terms = ['estabelecimento_id = @est', 'dia >= @lo', 'dia <= @hi'];
  if (p.premios !== null) terms.push(`premio_id IN (${p.premios.join(', ')})`);
  if (from !== null) terms.push('dia_resgate >= @from');
  if (to !== null) terms.push('dia_resgate < @to');
  const sql = `SELECT dia, SUM(n) AS n FROM premios_cliente_resgate
               WHERE ${terms.join(' AND ')} GROUP BY dia`;
  for (let i = 0; i < partial.length;) {
    let j = i;
    while (j + 1 < partial.length && partial[j + 1] === (partial[j] as number) - 1) j++;
    const params: Params = { est: p.est, lo: partial[j] as number, hi: partial[i] as number };
    if (from !== null) params.from = from;
    if (to !== null) params.to = to;
    for (const r of all({ sql, params }) as { dia: number; n: number }[]) counts.set(r.dia, r.n);
    i = j + 1;
  }
  return counts;
}

export function createRewardList(db: Db) {
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  const prepared = (sql: string): ReturnType<Db['prepare']> => {
    let st = cache.get(sql);
    if (st === undefined) {
      st = db.prepare(sql);
      if (cache.size > 500) cache.clear();
      cache.set(sql, st);
    }
    return st;
  };
  const premiosOf = db.prepare<
    [number],
    { id: number; categoria: Category; nome: string; nome_busca: string }
  >('SELECT id, categoria, nome, nome_busca FROM premios WHERE estabelecimento_id = ?');

  const COLUMNS = `id, cliente_id, premio_id, valido_ate_ms, data_resgate_ms, data_conquista_ms,
                   estornado_em_ms, status`;

  function plan(estId: number, query: RewardQuery, q: string | null, nowMs: number) {
    const premios = premiosOf.all(estId);
    const byId = new Map(premios.map((p) => [p.id, p]));
    let ids: number[] | null = null;
    if (query.categoria !== undefined || q !== null) {
      ids = premios
        .filter((p) => query.categoria === undefined || p.categoria === query.categoria)
        .filter((p) => q === null || p.nome_busca.includes(q))
        .map((p) => p.id)
        .sort((a, b) => a - b);
    }
    const p: Plan = {
      est: estId,
      cliente: query.id_cliente ?? null,
      premios: ids,
      status: query.status ?? null,
      now: nowMs,
      campo: CAMPO[query.filtrar_por],
      desde: query.data_inicio === undefined ? null : startOfLocalDay(query.data_inicio),
      ate: query.data_fim === undefined ? null : startOfNextLocalDay(query.data_fim),
    };
    return { p, byId };
  }

  /**
   * The total and one page. `run` executes a statement (`get` for counts, `all` for rows);
   * the plan test passes one that explains instead.
   */
  function select(
    estId: number,
    query: RewardQuery,
    q: string | null,
    nowMs: number,
    get: (s: Statements) => unknown,
    all: (s: Statements) => unknown[],
  ): { total: number; rows: RewardRow[] } {
    const { p, byId } = plan(estId, query, q, nowMs);
    if (p.premios !== null && p.premios.length === 0) return { total: 0, rows: [] };
    const limit = query.itens_por_pagina;
    const offset = (query.page - 1) * limit;
    const order = 'ORDER BY data_conquista_ms DESC, id DESC';
    const withNames = (rows: unknown[]): RewardRow[] =>
      (rows as Omit<RewardRow, 'categoria' | 'nome'>[]).map((r) => {
        const premio = byId.get(r.premio_id);
        return { ...r, categoria: premio?.categoria as Category, nome: premio?.nome ?? '' };
      });

    if (p.cliente !== null) {
      // One customer's records: few, read in order through their own index.
      const params: Params = {};
      const where = rowTerms(p, params).join(' AND ');
      const from = 'FROM premios_cliente INDEXED BY premios_cliente_cliente';
      const total =
        (get({ sql: `SELECT COUNT(*) AS n ${from} WHERE ${where}`, params }) as { n: number })?.n ??
        0;
      if (offset >= total) return { total, rows: [] };
      const rows = all({
        sql: `SELECT ${COLUMNS} ${from} WHERE ${where} ${order} LIMIT @limit OFFSET @offset`,
        params: { ...params, limit, offset },
      });
      return { total, rows: withNames(rows) };
    }

    const params: Params = {};
    const days = all({ sql: summarySql(p, params), params }) as {
      dia: number;
      whole: number;
      partial: number;
    }[];
    // The page runs from the day holding record `offset` to the day holding its last record
    // (or the oldest matching day): the scan is bounded on both sides.
    const redeemed = redeemedCounts(p, days, all);
    let total = 0;
    let start: { dia: number; skip: number } | null = null;
    let end: number | null = null;
    for (const d of days) {
      const n = d.partial ? (redeemed?.get(d.dia) ?? dayCount(p, d.dia, get)) : d.whole;
      if (n === 0) continue;
      if (start === null && offset < total + n) start = { dia: d.dia, skip: offset - total };
      total += n;
      if (start !== null && (end === null || total - n < offset + limit)) end = d.dia;
    }
    if (start === null || end === null) return { total, rows: [] };
    const pageParams: Params = {};
    const terms = rowTerms(p, pageParams, { lo: end * DAY_MS, hi: (start.dia + 1) * DAY_MS });
    const rows = all({
      sql: `SELECT ${COLUMNS} FROM premios_cliente INDEXED BY premios_cliente_lista
            WHERE ${terms.join(' AND ')} ${order} LIMIT @limit OFFSET @skip`,
      params: { ...pageParams, limit, skip: start.skip },
    });
    return { total, rows: withNames(rows) };
  }

  return {
    /** One page of the establishment's reward records (newest first) and the total. */
    list(
      estId: number,
      query: RewardQuery,
      q: string | null,
      nowMs: number,
    ): { total: number; rows: RewardRow[] } {
      return select(
        estId,
        query,
        q,
        nowMs,
        (s) => prepared(s.sql).get(s.params),
        (s) => prepared(s.sql).all(s.params),
      );
    },

    /** Every statement `list` runs for a query and its `EXPLAIN QUERY PLAN` (tests). */
    plans(estId: number, query: RewardQuery, q: string | null, nowMs: number): StatementPlan[] {
      const out: StatementPlan[] = [];
      const explain = (s: Statements): unknown[] => {
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(s.params) as {
          detail: string;
        }[];
        out.push({ sql: s.sql, plan: plan.map((r) => r.detail) });
        // Run it too, so the walk reaches the statements a real call would reach.
        return prepared(s.sql).all(s.params);
      };
      select(estId, query, q, nowMs, (s) => explain(s)[0], explain);
      return out;
    },
  };
}
