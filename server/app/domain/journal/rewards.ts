/**
 * Reading one customer's records of one reward from the service (`recompensas?id_cliente=…`):
 * the snapshot taken before a hand-over is sent, the re-read that decides a lost answer, and
 * whether a refused hand-over's reward was already handed over.
 */
import type { RewardRecords } from '../../../store';
import type { JournalDeps } from './context';
import { refusedAnswer, withLimit } from './readings';

interface RecordRow {
  id_premio_cliente: number;
  id_premio: number;
  nome: string | null;
  data_resgate: string | null;
  valido_ate: string | null;
}

const PAGE = 100;
const MAX_PAGES = 20;

/** The customer's records of `idPremio` with `status`, or null when they could not be read. */
async function recordsWith(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  idCliente: number,
  idPremio: number,
  status: 'pendente_resgate' | 'resgatado' | 'expirado',
): Promise<RecordRow[] | null> {
  const rows: RecordRow[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const read = await withLimit(deps.options.readLimitMs, async (signal) => {
      const query = {
        id_cliente: String(idCliente),
        status,
        itens_por_pagina: String(PAGE),
        page: String(page),
      };
      const res = await deps.call('recompensas', query, signal);
      const text = await res.text();
      if (res.status !== 200) return null;
      // The envelope's `data` is the page: its records and the next page's URL.
      const body = (JSON.parse(text) as { data?: { data?: unknown; next_page_url?: unknown } })
        .data;
      if (!Array.isArray(body?.data)) return null;
      return { data: body.data as Record<string, unknown>[], more: body.next_page_url != null };
    }).catch(() => null);
    if (read === null) return null;
    for (const r of read.data) {
      if (r.id_premio !== idPremio || typeof r.id_premio_cliente !== 'number') continue;
      rows.push({
        id_premio_cliente: r.id_premio_cliente,
        id_premio: idPremio,
        nome: typeof r.nome === 'string' ? r.nome : null,
        data_resgate: typeof r.data_resgate === 'string' ? r.data_resgate : null,
        valido_ate: typeof r.valido_ate === 'string' ? r.valido_ate : null,
      });
    }
    if (!read.more) return rows;
  }
  return null;
}

/** The reward's valid pending and handed-over records (and its name), or null (unread). */
export async function readRecords(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  idCliente: number,
  idPremio: number,
): Promise<{ records: RewardRecords; nome: string | null } | null> {
  const [pending, done] = await Promise.all([
    recordsWith(deps, idCliente, idPremio, 'pendente_resgate'),
    recordsWith(deps, idCliente, idPremio, 'resgatado'),
  ]);
  if (pending === null || done === null) return null;
  const ids = (rows: RecordRow[]) => rows.map((r) => r.id_premio_cliente).sort((a, b) => a - b);
  return {
    records: { pendentes: ids(pending), resgatados: ids(done) },
    nome: pending[0]?.nome ?? done[0]?.nome ?? null,
  };
}

/**
 * Compares the reward's records after a lost answer with those read just before sending:
 * one more handed-over record that was pending is this hand-over; none is "not yet".
 */
export function compareRecords(
  before: RewardRecords,
  after: RewardRecords,
): { verdict: 'handed' | 'unchanged' | 'ambiguous'; id: number | null } {
  const added = after.resgatados.filter((id) => !before.resgatados.includes(id));
  const same = added.length === 0 && before.pendentes.every((id) => after.pendentes.includes(id));
  if (same && after.resgatados.length === before.resgatados.length) {
    return { verdict: 'unchanged', id: null };
  }
  if (added.length === 1 && before.pendentes.includes(added[0]!)) {
    return { verdict: 'handed', id: added[0]! };
  }
  return { verdict: 'ambiguous', id: null };
}

/**
 * After the service said the customer has none of this reward to hand over: true when the
 * latest thing that happened to it is a hand-over (the newest `resgatado` record is newer than
 * the newest expired one), e.g. by another terminal at the same moment.
 */
export async function alreadyHandedOver(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  idCliente: number,
  idPremio: number,
): Promise<boolean> {
  const [done, expired] = await Promise.all([
    recordsWith(deps, idCliente, idPremio, 'resgatado'),
    recordsWith(deps, idCliente, idPremio, 'expirado'),
  ]);
  if (done === null || done.length === 0) return false;
  const newest = (xs: (string | null)[]) =>
    xs.reduce<number>((m, x) => Math.max(m, x === null ? 0 : Date.parse(x) || 0), 0);
  const handed = newest(done.map((r) => r.data_resgate));
  const lapsed = newest((expired ?? []).map((r) => r.valido_ate));
  return handed >= lapsed;
}

/** What a read of the customer by id came to (its phone is the slot postings take). */
export type CustomerById =
  | { kind: 'read'; exists: boolean; celular: string | null; nome: string | null }
  | { kind: 'refused'; status: number; text: string }
  | { kind: 'failed' };

/** Reads the customer by `id_cliente` (404: no such customer). */
export async function readCustomerById(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  idCliente: number,
): Promise<CustomerById> {
  return withLimit(deps.options.readLimitMs, async (signal): Promise<CustomerById> => {
    const res = await deps.call('buscar', { id_cliente: idCliente }, signal);
    const text = await res.text();
    if (res.status === 404) return { kind: 'read', exists: false, celular: null, nome: null };
    if (refusedAnswer(res.status)) return { kind: 'refused', status: res.status, text };
    if (res.status !== 200) return { kind: 'failed' };
    const d = ((JSON.parse(text) as { data?: unknown }).data ?? {}) as Record<string, unknown>;
    return {
      kind: 'read',
      exists: true,
      celular: typeof d.celular === 'string' ? d.celular : null,
      nome: typeof d.nome === 'string' ? d.nome : null,
    };
  }).catch((): CustomerById => ({ kind: 'failed' }));
}
