/**
 * The journal's entries as the app server's own API tells them, typed by the contract
 * (contract/api/postings.ts), which the browser parses them with.
 */
import type {
  ContingencyWire,
  LancamentoWire,
  LedgerWire,
  PostedExtraWire,
} from '#contract/api/postings';
import type { CustomerReading, JournalEntry } from '../../../store';
import type { ContingencyStatus } from './deliver';
import { answerPoints } from './lookups';

function customerOf(r: CustomerReading | null): LancamentoWire['cliente'] {
  if (r === null || !r.exists) return null;
  return {
    id_cliente: r.id_cliente,
    nome: r.nome,
    saldo_atual: r.saldo,
    saldo_carencia: r.saldo_carencia,
    compras: r.compras,
  };
}

/** A posting (`lancamento`); `terminalName` is its terminal's name (in the ledger). */
export function toLancamento(e: JournalEntry, terminalName: string | null = null): LancamentoWire {
  let corpo: unknown = null;
  if (e.answerBody !== null) {
    try {
      corpo = JSON.parse(e.answerBody);
    } catch {
      corpo = null;
    }
  }
  return {
    chave: e.key,
    tipo: e.kind,
    premio:
      e.kind === 'premio' && e.reward !== null
        ? {
            id_premio: e.reward.id_premio,
            id_premio_cliente: e.reward.id_premio_cliente,
            nome: e.reward.nome,
          }
        : null,
    estado: e.state,
    motivo: e.reason,
    terminal: e.terminalId,
    terminal_nome: terminalName,
    criado_em: new Date(e.createdAt).toISOString(),
    atualizado_em: new Date(e.updatedAt).toISOString(),
    valor_gasto: e.amount,
    celular: e.customerKey,
    nome: e.customerName,
    pontos: e.kind === 'premio' ? null : e.points,
    conferido:
      e.answerStatus === null && (e.kind === 'premio' ? e.state === 'lançado' : e.reading !== null),
    guardado: e.body !== null,
    resposta: e.answerStatus === null ? null : { status: e.answerStatus, corpo },
    cliente: customerOf(e.reading),
  };
}

/**
 * What the journal adds to a posting's answer (`data` of the service's 200): what that answer
 * tells with the snapshot, so the same on every sending of the sale.
 */
export function postedExtra(e: JournalEntry, data: Record<string, unknown>): PostedExtraWire {
  const pontos =
    e.snapshot === null || e.endedAt === null ? null : answerPoints(e.snapshot, data, e.endedAt);
  return { resultado: { pontos } };
}

/**
 * The shift ledger: its postings with their terminals' names, and the terminals (`names`)
 * when the viewer may filter by them (`listTerminals`: a manager).
 */
export function ledgerData(
  ledger: { entries: readonly JournalEntry[]; truncated: boolean },
  names: ReadonlyMap<string, string>,
  listTerminals: boolean,
): LedgerWire {
  return {
    lancamentos: ledger.entries.map((e) =>
      toLancamento(e, e.terminalId === null ? null : (names.get(e.terminalId) ?? null)),
    ),
    truncado: ledger.truncated,
    terminais: listTerminals ? [...names].map(([id, nome]) => ({ id, nome })) : [],
  };
}

/** Contingency as the counter shows it. */
export function contingencyData(s: ContingencyStatus): ContingencyWire {
  return {
    contingencia: s.open,
    desde: s.openedAt === null ? null : new Date(s.openedAt).toISOString(),
    aguardando: s.waiting,
    atencao: s.attention,
    mais_antiga: s.oldestWaitingAt === null ? null : new Date(s.oldestWaitingAt).toISOString(),
    limite_aguardando: s.maxWaiting,
    limite_horas: Math.round((s.maxWaitMs / 3_600_000) * 10) / 10,
    aceita: s.accepting,
  };
}
