// The contract of the chain's view (the `rede` role), the app server's own API:
// `GET /api/rede/lojas` (the stores the deployment serves) and `GET /api/rede/painel?de&ate
// [&fuso]` (the chain's roll-up of a period: each store's figures from its own dashboard, and
// their sums). A store whose figures could not be read is `indisponivel` in its row; a store
// whose service did not answer has `premios` null. A `rede` terminal reads one store's own
// screens by sending `X-Loja: <id>` (STORE_HEADER); any other terminal naming another store
// is refused. Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';

/** The request header naming the store a `rede` terminal reads (its own screens' routes). */
export const STORE_HEADER = 'x-loja';

const count = () => z.number().check(z.int(), z.gte(0));

/** `data` of `GET /api/rede/lojas`: the default store first, then by establishment id. */
export const RedeLojas = /* @__PURE__ */ lazySchema(() =>
  z.object({
    lojas: z.array(z.object({ id: count(), nome: z.string(), padrao: z.boolean() })),
  }),
);
export type RedeLojas = z.infer<typeof RedeLojas>;

/** The figures the roll-up shows of one store, or of the chain (their sums). */
const figures = () => ({
  lancamentos: count(),
  pontos: z.number(),
  /** Cents of the postings the service took (lançado). */
  valor: z.number(),
  /** The PDV's sales of the period (cancelled ones apart) and how many were identified. */
  pdv_vendas: count(),
  pdv_identificadas: count(),
  /** Sales kept while the service was down. */
  guardadas: count(),
  /** The conferência's findings that need attention, over the period's days. */
  achados: count(),
  /** Vigilância's open alerts now. */
  alertas_abertos: count(),
});

/** `data` of `GET /api/rede/painel`. Money is cents; dates `YYYY-MM-DD` (local). */
export const RedePainel = /* @__PURE__ */ lazySchema(() =>
  z.object({
    de: z.string(),
    ate: z.string(),
    lojas: z.array(
      z.object({
        id: count(),
        nome: z.string(),
        /** `indisponivel`: this store's figures could not be read now (the others still are). */
        situacao: z.enum(['ok', 'indisponivel']),
        figuras: z.nullable(z.object(figures())),
        /** From the store's service: null when it did not answer (or the row is indisponível). */
        premios: z.nullable(z.object({ aguardando_retirada: count(), vencendo: count() })),
      }),
    ),
    /** The sums over the stores that answered; `premios` over those whose service answered. */
    totais: z.object({
      ...figures(),
      lojas: count(),
      lojas_indisponiveis: count(),
      premios: z.object({ aguardando_retirada: count(), vencendo: count(), lojas: count() }),
    }),
  }),
);
export type RedePainel = z.infer<typeof RedePainel>;
export type RedePainelWire = z.input<typeof RedePainel>;
