/** The conferência's answer (the contract's shape) from a run and its customers' findings. */
import {
  ACHADO_ATENCAO,
  ACHADO_TIPOS,
  type AchadoTipo,
  type AchadoWire,
  type ConferenciaWire,
} from '#contract/api/conferencia';
import { runCustomers, type PostedEntry, type ConferenciaRun, type Store } from '../../../store';

/** A nightly run's start, as the answer says it. */
const DISPARO = {
  on_time: 'no_horario',
  startup: 'ao_iniciar',
  late: 'atrasada',
} as const satisfies Record<NonNullable<ConferenciaRun['trigger']>, string>;

export function emptySummary(): Record<AchadoTipo, number> {
  return Object.fromEntries(ACHADO_TIPOS.map((t) => [t, 0])) as Record<AchadoTipo, number>;
}

/** The answer's shape of a run and its customers' findings. */
export async function toWire(
  store: Store,
  run: ConferenciaRun,
): Promise<NonNullable<ConferenciaWire>> {
  const customers = await runCustomers(store, run.id);
  const achados = customers.flatMap((c) => c.findings as AchadoWire[]);
  const resumo = emptySummary();
  for (const a of achados) resumo[a.tipo] += 1;
  return {
    id: run.id,
    dia: run.day,
    situacao: run.state,
    origem: run.origin,
    disparo: run.trigger === null ? null : DISPARO[run.trigger],
    precisa_atencao: ACHADO_ATENCAO.some((t) => resumo[t] > 0),
    iniciada_em: run.startedAt,
    concluida_em: run.finishedAt,
    clientes: run.customers,
    clientes_lidos: run.done,
    leituras: run.reads,
    lancamentos: run.postings,
    confirmados: customers.reduce((n, c) => n + c.confirmed, 0),
    resumo,
    achados,
  };
}

/** The customer's id in the service, from what the journal kept of its postings. */
export function idClienteOf(entries: readonly PostedEntry[]): number | null {
  for (const e of entries) {
    for (const text of [e.answerBody, e.snapshot]) {
      if (text === null) continue;
      try {
        const v = JSON.parse(text) as { data?: { id_cliente?: unknown }; id_cliente?: unknown };
        const id = v.data?.id_cliente ?? v.id_cliente;
        if (typeof id === 'number') return id;
      } catch {
        // not JSON: look further
      }
    }
  }
  return null;
}
