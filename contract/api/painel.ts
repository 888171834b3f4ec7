// The contract of the manager's dashboard (`GET /api/painel?de&ate[&fuso]`), the app server's
// own API: the figures of a period from the postings journal, and from the service only what
// it alone knows (rewards waiting to be picked up). The browser parses the answer with it and
// the server checks the query and types its answer with it. Pure: zod/mini and the wire.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { POSTING_STATES } from '../wire';
import { calendarDate, DAY_MS, OFFSET_MESSAGE, offsetMinutes } from './query-dates';

/** Longest period one dashboard request covers, in days (a quarter). */
export const PAINEL_MAX_DAYS = 92;
/** The local offset (minutes east of UTC) when the browser sends none: Brasília. */
export const PAINEL_DEFAULT_OFFSET_MIN = -180;
/** How far ahead "expiring soon" looks, in days (today included). */
export const PAINEL_EXPIRING_DAYS = 7;

/** A calendar date `YYYY-MM-DD` that exists, as its day number since 1970-01-01. */
const calendarDay = () =>
  z.pipe(
    calendarDate(),
    z.transform((s) => Date.parse(`${s}T00:00:00Z`) / DAY_MS),
  );

/**
 * The period `[de, ate]` (local calendar dates, both included, at most 92 days) and the
 * browser's offset from UTC in minutes (`fuso`, -180 for Brasília; absent: Brasília).
 */
export const PainelQuery = /* @__PURE__ */ lazySchema(() =>
  z
    .object({
      de: calendarDay(),
      ate: calendarDay(),
      fuso: z.pipe(
        z.pipe(
          z.optional(z.string({ error: OFFSET_MESSAGE })),
          z.transform((v: string | undefined) =>
            v === undefined || v.trim() === '' ? PAINEL_DEFAULT_OFFSET_MIN : Number(v),
          ),
        ),
        offsetMinutes(),
      ),
    })
    .check(
      z.refine((q) => q.ate >= q.de, {
        error: 'A data final deve ser igual ou posterior à data inicial.',
        path: ['ate'],
        when: (payload) => payload.issues.length === 0,
      }),
      z.refine((q) => q.ate - q.de < PAINEL_MAX_DAYS, {
        error: `O período vai até ${PAINEL_MAX_DAYS} dias.`,
        path: ['ate'],
        when: (payload) => payload.issues.length === 0,
      }),
    ),
);
export type PainelQuery = z.input<typeof PainelQuery>;
export type PainelPeriod = z.output<typeof PainelQuery>;

const count = () => z.number().check(z.int(), z.gte(0));

/**
 * How many of the PDV's sales were identified: `identificadas` (posted to a customer) of
 * `total` (the sales of the period, cancelled ones apart); the rest is `nao_identificadas`
 * (expired with nobody identified) or `em_aberto` (still waiting, at a kiosk, being posted).
 */
const pdvRate = () => ({
  total: count(),
  identificadas: count(),
  nao_identificadas: count(),
  em_aberto: count(),
  canceladas: count(),
});

/** `data` of `GET /api/painel`. Money is cents; dates `YYYY-MM-DD` (local). */
export const Painel = /* @__PURE__ */ lazySchema(() =>
  z.object({
    de: z.string(),
    ate: z.string(),
    /** Every day of the period, oldest first, days without postings included. */
    dias: z.array(z.object({ dia: z.string(), lancamentos: count(), pontos: z.number() })),
    /** Terminals that posted in the period, most postings first (`id` null: no terminal). */
    terminais: z.array(
      z.object({
        id: z.nullable(z.string()),
        nome: z.nullable(z.string()),
        lancamentos: count(),
        pontos: z.number(),
        valor: z.number(),
      }),
    ),
    /** The period's postings by state, states without postings left out. */
    estados: z.array(z.object({ estado: z.enum(POSTING_STATES), lancamentos: count() })),
    totais: z.object({
      lancamentos: count(),
      pontos: z.number(),
      /** Cents spent in the postings the service took (lançado). */
      valor: z.number(),
      /** Customers created by a posting of ours (they did not exist before it). */
      cadastrados: count(),
      /** Rewards handed over at the counter that the service took (the journal's hand-overs). */
      premios_entregues: count(),
    }),
    /** Sales kept while the service was down: how many, delivered, how long they waited. */
    guardadas: z.object({
      total: count(),
      entregues: count(),
      espera_media_s: z.nullable(z.number()),
      espera_maxima_s: z.nullable(z.number()),
    }),
    /**
     * The days of the period with a finished conferência (the latest of each day): its
     * findings that need attention; `precisa_atencao` when there is any.
     */
    conferencias: z.optional(
      z.array(z.object({ dia: z.string(), achados: count(), precisa_atencao: z.boolean() })),
    ),
    /**
     * The identification rate of the PDV's sales: the period's, per counter terminal
     * (most sales first; `id` null: a counter since removed) and per day (days with sales only,
     * oldest first). Absent from a server without the integration.
     */
    pdv: z.optional(
      z.object({
        ...pdvRate(),
        terminais: z.array(
          z.object({ id: z.nullable(z.string()), nome: z.nullable(z.string()), ...pdvRate() }),
        ),
        dias: z.array(z.object({ dia: z.string(), ...pdvRate() })),
      }),
    ),
    /**
     * From the service's reward list: waiting to be picked up, and of those the ones whose
     * validity ends between `hoje` and `vence_ate` (inclusive). null: the service did not
     * answer (the rest of the dashboard still does).
     */
    premios: z.nullable(
      z.object({
        aguardando_retirada: count(),
        vencendo: count(),
        hoje: z.string(),
        vence_ate: z.string(),
      }),
    ),
    /**
     * Vigilância's open alerts now (whatever the period), and of those the sales cancelled at
     * the PDV after posting (points to reverse in the service's panel). Absent: an older server.
     */
    alertas_abertos: z.optional(z.object({ total: count(), estornos: count() })),
  }),
);
export type Painel = z.infer<typeof Painel>;
export type PainelWire = z.input<typeof Painel>;
