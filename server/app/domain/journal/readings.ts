/**
 * Reading the customer from the service: the snapshot taken before a posting is sent, and the
 * re-read that decides a lost answer by comparing the two.
 */
import type { CustomerReading } from '../../../store';
import type { JournalDeps } from './context';

export class UpstreamTimeout extends Error {
  override name = 'UpstreamTimeout';
}

/** Reads the body of a `clientes/buscar` answer into what the journal compares. */
export function readCustomer(data: unknown): CustomerReading {
  const d = (data ?? {}) as Record<string, unknown>;
  const wallet = (d.carteira ?? {}) as Record<string, unknown>;
  const history = Array.isArray(wallet.historico) ? (wallet.historico as unknown[]) : [];
  const credit = history.find((h) => (h as { tipo?: unknown } | null)?.tipo === 'credito') as
    { pontos?: unknown } | undefined;
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    exists: true,
    id_cliente: typeof d.id_cliente === 'number' ? d.id_cliente : null,
    nome: typeof d.nome === 'string' ? d.nome : null,
    compras: int(d.compras),
    ultima_compra: typeof d.ultima_compra === 'string' ? d.ultima_compra : null,
    saldo: int(wallet.saldo),
    saldo_carencia: int(wallet.saldo_carencia),
    ultimo_credito: typeof credit?.pontos === 'number' ? credit.pontos : null,
  };
}

export const ABSENT: CustomerReading = {
  exists: false,
  id_cliente: null,
  nome: null,
  compras: 0,
  ultima_compra: null,
  saldo: 0,
  saldo_carencia: 0,
  ultimo_credito: null,
};

/**
 * Compares the customer after a lost answer with the snapshot taken just before sending.
 * Only this app's one in-flight posting per customer can change it, so exactly one more
 * purchase is this posting; none is "not yet"; anything else is ambiguous.
 */
export function compareReadings(
  before: CustomerReading,
  after: CustomerReading,
): 'posted' | 'unchanged' | 'ambiguous' {
  if (!after.exists) return before.exists ? 'ambiguous' : 'unchanged';
  const delta = after.compras - (before.exists ? before.compras : 0);
  if (delta === 0 && after.ultima_compra === before.ultima_compra) return 'unchanged';
  if (delta === 1 && after.ultima_compra !== null) return 'posted';
  return 'ambiguous';
}

/** What a read of the customer came to. */
export type ReadOutcome =
  | { kind: 'read'; reading: CustomerReading }
  /** The service answered and refused the read (a 4xx but 404 and 408): an answer, not an outage. */
  | { kind: 'refused'; status: number; text: string; message: string | null }
  /** No answer, a timeout, a 5xx or an unreadable body: the service may be down. */
  | { kind: 'failed' };

/** The `message` of a service's envelope, or null. */
export function envelopeMessage(text: string): string | null {
  try {
    const m = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

export function refusedAnswer(status: number): boolean {
  // The service refuses before committing: validation, auth, not found, conflict, rate limit.
  return status >= 400 && status <= 499 && status !== 408;
}

/** Runs `run` with an abort signal, rejecting with UpstreamTimeout after `ms`. */
export async function withLimit<T>(
  ms: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let t: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    t = setTimeout(() => {
      controller.abort();
      reject(new UpstreamTimeout());
    }, ms);
  });
  deadline.catch(() => undefined);
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } finally {
    clearTimeout(t);
  }
}

/** Reads the customer: by id once known, else by phone, then by CPF when the phone is unknown. */
export async function readOutcome(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  customerKey: string,
  snapshot: CustomerReading | null,
  cpf: string | null,
): Promise<ReadOutcome> {
  const once = async (key: Record<string, unknown>): Promise<ReadOutcome | 'absent'> =>
    withLimit(deps.options.readLimitMs, async (signal): Promise<ReadOutcome | 'absent'> => {
      const res = await deps.call('buscar', key, signal);
      const text = await res.text();
      if (res.status === 404) return 'absent';
      if (refusedAnswer(res.status)) {
        return { kind: 'refused', status: res.status, text, message: envelopeMessage(text) };
      }
      if (res.status !== 200) return { kind: 'failed' };
      try {
        const reading = readCustomer((JSON.parse(text) as { data?: unknown }).data);
        return { kind: 'read', reading };
      } catch {
        return { kind: 'failed' };
      }
    }).catch((): ReadOutcome => ({ kind: 'failed' }));
  // Every reading says when it was sent (a posting's points may be told by its carência).
  const readAt = deps.options.now();
  const stamped = (outcome: ReadOutcome): ReadOutcome =>
    outcome.kind === 'read' ? { kind: 'read', reading: { ...outcome.reading, readAt } } : outcome;
  const absent: ReadOutcome = { kind: 'read', reading: ABSENT };
  const byId = snapshot?.id_cliente ?? null;
  const first = await once(byId !== null ? { id_cliente: byId } : { celular: customerKey });
  if (first !== 'absent') return stamped(first);
  if (byId === null && cpf !== null) {
    const second = await once({ cpf });
    return stamped(second === 'absent' ? absent : second);
  }
  return stamped(absent);
}

/** Reads the customer; null when there is no reading (no answer, or a refusal). */
export async function readFor(
  deps: Pick<JournalDeps, 'call' | 'options'>,
  customerKey: string,
  snapshot: CustomerReading | null,
  cpf: string | null,
): Promise<CustomerReading | null> {
  const outcome = await readOutcome(deps, customerKey, snapshot, cpf);
  return outcome.kind === 'read' ? outcome.reading : null;
}
