// The contract of the postings journal's own API (the app server's, not the loyalty
// service's): `/api/lancamentos…` and `/api/contingencia`, plus the journal's answers to
// `pontuar`. The browser parses these answers with it and the server types its answers and
// checks its requests with it, so the two cannot drift. Pure: zod/mini and the wire constants.
// Each schema is built at its first use (`lazySchema`), so importing one costs little.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { POSTING_STATES } from '../wire';

/** What a journal entry is: a points posting, or a reward handed over at the counter. */
export const LANCAMENTO_KINDS = ['pontos', 'premio'] as const;

/**
 * A posting as the journal tells it (`data` of `GET /api/lancamentos/{chave}`, of the 202 of
 * `pontuar` and of a manager's decision). A hand-over is an entry too (`tipo: 'premio'`, with
 * `premio`; its `valor_gasto` is 0 and `pontos` null); a server from before hand-overs sends
 * neither field: a points posting.
 */
export const Lancamento = /* @__PURE__ */ lazySchema(() =>
  z.object({
    chave: z.string(),
    tipo: z.pipe(
      z.optional(z.enum(LANCAMENTO_KINDS)),
      z.transform((v) => v ?? 'pontos'),
    ),
    premio: z.pipe(
      z.optional(
        z.nullable(
          z.object({
            id_premio: z.number(),
            id_premio_cliente: z.nullable(z.number()),
            nome: z.nullable(z.string()),
          }),
        ),
      ),
      z.transform((v) => v ?? null),
    ),
    estado: z.enum(POSTING_STATES),
    /** Why it is in this state, for a person (null when its answer says it). */
    motivo: z.nullable(z.string()),
    /** The terminal that posted it (its id) and that terminal's name (in the ledger). */
    terminal: z.nullable(z.string()),
    terminal_nome: z.nullable(z.string()),
    /** ISO 8601 instants. */
    criado_em: z.string(),
    atualizado_em: z.string(),
    /** Cents. */
    valor_gasto: z.number(),
    celular: z.string(),
    nome: z.nullable(z.string()),
    /** The points it earned, once known. */
    pontos: z.nullable(z.number()),
    /** Decided by re-reading the customer (its answer was lost). */
    conferido: z.boolean(),
    /** Kept while the service was down (contingency), delivered later. */
    guardado: z.boolean(),
    /** The service's own answer (status and parsed body), when there was one. */
    resposta: z.nullable(z.object({ status: z.number(), corpo: z.unknown() })),
    /** The store (establishment id) that posted it: the chain's ledger of every store only. */
    loja: z.optional(z.int()),
    /** The customer as last read by the journal. */
    cliente: z.nullable(
      z.object({
        id_cliente: z.nullable(z.number()),
        nome: z.nullable(z.string()),
        saldo_atual: z.number(),
        saldo_carencia: z.number(),
        compras: z.number(),
      }),
    ),
  }),
);
export type Lancamento = z.infer<typeof Lancamento>;
/** A posting as the server writes it (the browser fills `tipo` and `premio` when absent). */
export type LancamentoWire = z.input<typeof Lancamento>;

/**
 * What the journal adds to the service's own answer to `pontuar` (its 200, relayed, and the
 * counter's PDV posting's): `data.resultado`, what that answer tells beyond the balances after
 * the posting (the service's own `saldo_atual`, `saldo_carencia`: PointsResult in
 * src/api/schemas.ts). `pontos`: the points the purchase earned, when the answer and the
 * journal's snapshot of the customer tell them (points held in carência); null: the
 * customer's next read tells them (its newest credit). The same on every sending of the same
 * sale. A server from before it sends the service's answer alone.
 */
export const PostedExtra = /* @__PURE__ */ lazySchema(() =>
  z.object({
    resultado: z.pipe(
      z.optional(z.object({ pontos: z.nullable(z.number()) })),
      z.transform((v) => v ?? { pontos: null }),
    ),
  }),
);
export type PostedExtra = z.infer<typeof PostedExtra>;
export type PostedExtraWire = z.input<typeof PostedExtra>;

/**
 * The shift ledger (`data` of `GET /api/lancamentos?de&ate[&terminal]`, and of the chain's
 * `GET /api/rede/lancamentos`, each posting naming its store).
 */
export const Ledger = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** Newest first, the unsettled postings of earlier days on top. */
    lancamentos: z.array(Lancamento),
    /** More postings than one answer lists. */
    truncado: z.boolean(),
    /** The terminals a manager may filter by (empty for a cashier). */
    terminais: z.array(z.object({ id: z.string(), nome: z.string() })),
  }),
);
export type Ledger = z.infer<typeof Ledger>;
export type LedgerWire = z.input<typeof Ledger>;

/** Contingency as the counter shows it (`data` of `GET /api/contingencia`). */
export const Contingency = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** The service is unreachable: sales are kept, to be delivered when it returns. */
    contingencia: z.boolean(),
    /** Since when (ISO 8601), while it is. */
    desde: z.nullable(z.string()),
    /** Kept sales waiting for delivery. */
    aguardando: z.number(),
    /** Kept sales the service refused at delivery: a manager resends or discards them. */
    atencao: z.number(),
    /** When the oldest waiting sale was kept (ISO 8601). */
    mais_antiga: z.nullable(z.string()),
    limite_aguardando: z.number(),
    limite_horas: z.number(),
    /** Whether a new sale could be kept now. */
    aceita: z.boolean(),
  }),
);
export type Contingency = z.infer<typeof Contingency>;
export type ContingencyWire = z.input<typeof Contingency>;

/** `data` of the 503 of `pontuar` when the service is down and no more sales may be kept. */
export const ContingencyFull = /* @__PURE__ */ lazySchema(() =>
  z.object({ limite_contingencia: z.literal(true) }),
);
export type ContingencyFullWire = z.input<typeof ContingencyFull>;

const PASSWORD_MESSAGE = 'Informe a senha do atendente.';

/** The body of `POST /api/lancamentos/{chave}/reenviar`: the corrected attendant password. */
export const ResendBody = /* @__PURE__ */ lazySchema(() =>
  z.object({
    senha_atendente: z
      .string({ error: PASSWORD_MESSAGE })
      .check(z.refine((s) => s.trim() !== '' && s.length <= 64, { error: PASSWORD_MESSAGE })),
  }),
);
export type ResendBody = z.input<typeof ResendBody>;

/** Longest period one ledger request covers (31 days, and an hour for a change of offset). */
export const LEDGER_MAX_SPAN_MS = 31 * 24 * 3_600_000 + 3_600_000;
const INSTANT_MESSAGE = 'Informe data e hora ISO 8601 (ex.: 2026-11-23T03:00:00Z).';
const TERMINAL_MESSAGE = 'Terminal inválido.';

/** An ISO 8601 date and time, as epoch milliseconds. */
const instant = () =>
  z.pipe(
    z.string({ error: INSTANT_MESSAGE }).check(
      z.refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), {
        error: INSTANT_MESSAGE,
      }),
    ),
    z.transform((s) => Date.parse(s)),
  );

/**
 * The query of the shift ledger: the period `[de, ate)` (ISO 8601, at most 31 days) and,
 * for a manager, one terminal's id (absent or blank: every terminal the role sees).
 */
export const LedgerQuery = /* @__PURE__ */ lazySchema(() =>
  z
    .object({
      de: instant(),
      ate: instant(),
      terminal: z.pipe(
        z.pipe(
          z.optional(z.string({ error: TERMINAL_MESSAGE })),
          z.transform((v) => v?.trim() || null),
        ),
        z.nullable(z.string().check(z.maxLength(64, { error: TERMINAL_MESSAGE }))),
      ),
    })
    .check(
      // The period is checked once both its ends are instants.
      z.refine((q) => q.ate > q.de, {
        error: 'O fim do período deve ser depois do início.',
        path: ['ate'],
        when: (payload) => payload.issues.length === 0,
      }),
      z.refine((q) => q.ate - q.de <= LEDGER_MAX_SPAN_MS, {
        error: 'O período vai até 31 dias.',
        path: ['ate'],
        when: (payload) => payload.issues.length === 0,
      }),
    ),
);
export type LedgerQuery = z.input<typeof LedgerQuery>;

/**
 * The query of `GET /api/lancamentos/{chave}`: `esperar`, seconds the server may hold the
 * answer while the posting is in flight (anything but a positive number: not at all).
 */
export const LancamentoQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({ esperar: z.catch(z.coerce.number(), 0) }),
);
