// The app server's journal entries for tests (not imported by app code): one posting or
// hand-over as `GET /api/lancamentos/{chave}` and the ledger list answer it.

/** A journal entry as sent: what tests read back of it typed, the rest as set. */
export type LancamentoWire = Record<string, unknown> & {
  chave: string;
  terminal: string | null;
  criado_em: string;
};

/**
 * A journal entry: by default a points posting of R$ 25,90 that settled ("lançado", 25 points)
 * on no named terminal; `over` sets what the test is about.
 */
export function lancamentoWire(over: Record<string, unknown> = {}): LancamentoWire {
  return {
    chave: 'x',
    estado: 'lançado',
    motivo: null,
    terminal: null,
    terminal_nome: null,
    criado_em: '2026-11-23T12:00:00.000Z',
    atualizado_em: '2026-11-23T12:00:01.000Z',
    valor_gasto: 2590,
    celular: '+5511987654321',
    nome: 'Maria',
    pontos: 25,
    conferido: false,
    guardado: false,
    resposta: null,
    cliente: null,
    ...over,
  } as LancamentoWire;
}

/** The terminals a ledger test's store has. */
export const LEDGER_TERMINALS = [
  { id: '1', nome: 'Caixa 1' },
  { id: '2', nome: 'Caixa 2' },
];

/** A ledger row of `terminal` (named from LEDGER_TERMINALS) for `nome`, made at `at`. */
export function ledgerRowWire(
  terminal: string,
  nome: string,
  at: Date = new Date(),
): LancamentoWire {
  return lancamentoWire({
    chave: `${terminal}-${nome}`,
    nome,
    criado_em: at.toISOString(),
    atualizado_em: at.toISOString(),
    terminal,
    terminal_nome: LEDGER_TERMINALS.find((t) => t.id === terminal)!.nome,
  });
}
