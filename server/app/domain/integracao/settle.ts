/**
 * How a PDV sale ends. Whichever way it is posted (from the PDV's own CPF or phone, by the
 * counter, or claimed at a kiosk), the posting is one journal entry (`posting_key`), and the
 * sale follows that entry: `lançada` once the journal says `lançado`; back to `aguardando`
 * when it is known not posted (refused: the counter may post it with a new key); still
 * `lançando` while undecided. A sale at a kiosk follows the kiosk's staged sale the same way.
 * Nothing here sends anything: exactly-once is the journal's.
 */
import type { JournalEntry, PdvSaleRow } from '../../../store';
import { formatTimestamp } from '#contract/rules/time';
import { readCustomer } from '../kiosk/customer';
import type { PdvDeps } from './deps';
import { pdvMessages, pdvSaleLife } from './pdv-sale';

/** A `lançando` sale whose key the journal never saw this long after: its sender died first. */
const ORPHAN_MS = 60_000;

/** Rewards won by this posting: of the customer's rewards waiting, those won since it was sent. */
function rewardsWon(
  pending: readonly unknown[],
  since: number,
): { nome: string; valido_ate: string }[] {
  const from = formatTimestamp(since - 2_000);
  return pending
    .map((r) => (r ?? {}) as Record<string, unknown>)
    .filter((r) => typeof r.data_conquista === 'string' && r.data_conquista >= from)
    .map((r) => ({
      nome: typeof r.nome === 'string' ? r.nome : 'Prêmio',
      valido_ate: typeof r.valido_ate === 'string' ? r.valido_ate : '',
    }));
}

/** The sale `lançada` from its posted entry: points, the customer's kiosk view, rewards won. */
async function posted(deps: PdvDeps, s: PdvSaleRow, e: JournalEntry): Promise<PdvSaleRow | null> {
  let points = e.points;
  let customer: string | null = null;
  let rewards: string | null = null;
  try {
    // One read of the customer and their rewards waiting: the view, the points, the rewards won.
    const read = await readCustomer(deps.kiosk, e.customerKey);
    if (read !== null) {
      points = read.lastCredit ?? points;
      customer = JSON.stringify(read.view);
    }
    rewards = JSON.stringify(rewardsWon(read?.pending ?? [], e.sentAt ?? e.createdAt));
  } catch {
    // The points are posted; the customer's view is a nicety the PDV may miss.
  }
  return pdvSaleLife.posted(deps, s, { points, customer, rewards });
}

/** Follows the journal's entry of a `lançando` sale. */
async function followEntry(deps: PdvDeps, s: PdvSaleRow): Promise<PdvSaleRow> {
  const key = s.posting_key;
  if (key === null) return s;
  const e = await deps.postings.get(key);
  let moved: PdvSaleRow | null = null;
  if (e === null) {
    if (deps.store.now() - s.updated_at < ORPHAN_MS) return s;
    moved = await pdvSaleLife.backToCounter(deps, s, key, pdvMessages.waiting);
  } else if (e.state === 'lançado') {
    moved = await posted(deps, s, e);
  } else if (e.state === 'recusado' || e.state === 'descartado') {
    moved = await pdvSaleLife.backToCounter(deps, s, key, e.reason ?? pdvMessages.notPosted);
  }
  return moved ?? (await deps.sales.get(s.id)) ?? s;
}

/** Follows the kiosk's staged sale of a sale passed to a kiosk (F7). */
async function followKiosk(deps: PdvDeps, s: PdvSaleRow): Promise<PdvSaleRow> {
  const key = s.posting_key;
  if (key === null) return s;
  const k = await deps.kiosk.sales.get(key);
  let moved: PdvSaleRow | null = null;
  if (k === null || ['cancelado', 'expirado', 'recusado'].includes(k.state)) {
    // Known not posted there: back at the counter.
    moved = await pdvSaleLife.backFromKiosk(deps, s, key, k?.message ?? null);
  } else if (k.state === 'lançado') {
    const e = await deps.postings.get(key);
    if (e !== null && e.state === 'lançado') moved = await posted(deps, s, e);
  } else if (k.state === 'lançando' || k.state === 'desconhecido') {
    moved = await pdvSaleLife.postingAtKiosk(deps, s, key);
  }
  return moved ?? (await deps.sales.get(s.id)) ?? s;
}

/** The sale brought up to date with what it follows. */
export async function refresh(deps: PdvDeps, s: PdvSaleRow): Promise<PdvSaleRow> {
  if (s.state === 'lançando') return followEntry(deps, s);
  if (s.state === 'no quiosque') return followKiosk(deps, s);
  return s;
}

/** Expires what waited too long, and brings every followed sale up to date. */
export async function sweepPdv(deps: PdvDeps): Promise<void> {
  await pdvSaleLife.expired(deps);
  for (const s of await deps.sales.following()) await refresh(deps, s);
}

/** Runs the sweep every `everyMs` in the background; answers the function that stops it. */
export function startPdvSweeper(deps: PdvDeps, everyMs = 1_000): () => void {
  let running = false;
  const gate = deps.scope ? (deps.sweepGate ?? null) : null;
  const due = async () =>
    gate === null || gate.due('pdv', deps.scope!.establishmentId, deps.scope!.orUnnamed);
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    due()
      .then((yes) => (yes ? sweepPdv(deps) : undefined))
      .catch((err: unknown) => deps.logger?.warn({ err: String(err) }, 'pdv sales sweep failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
