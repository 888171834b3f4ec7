// The contract of the conferência (`GET|POST /api/painel/conferencia?dia[&fuso]`), the app
// server's own API: a day's postings "lançado" matched with the service's history of each
// customer, and what did not match, our entry and the service's record side by side. The
// browser parses the answer with it; the server checks the query and types its answer.
// Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { calendarDate, DAY_MS, OFFSET_MESSAGE, offsetMinutes } from './query-dates';

/** Kinds of finding. `nao_lancado_por_nos` is informational (the service's own panel, …). */
export const ACHADO_TIPOS = [
  'ausente',
  'duplicado',
  'pontos_divergentes',
  'nao_conferido',
  'nao_lancado_por_nos',
] as const;
export type AchadoTipo = (typeof ACHADO_TIPOS)[number];
/** The kinds that make a day "precisa de atenção". */
export const ACHADO_ATENCAO: readonly AchadoTipo[] = [
  'ausente',
  'duplicado',
  'pontos_divergentes',
  'nao_conferido',
];

/**
 * `dia`: the local calendar day (absent: yesterday in the store's time zone); `fuso`: minutes
 * east of UTC the day is counted in (absent: the store's, Brasília).
 */
export const ConferenciaQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({
    dia: z.optional(calendarDate()),
    fuso: z.pipe(
      z.pipe(
        z.optional(z.string({ error: OFFSET_MESSAGE })),
        z.transform((v: string | undefined) =>
          v === undefined || v.trim() === '' ? null : Number(v),
        ),
      ),
      z.nullable(offsetMinutes()),
    ),
  }),
);
export type ConferenciaQuery = z.input<typeof ConferenciaQuery>;
export type ConferenciaParams = z.output<typeof ConferenciaQuery>;

/** `YYYY-MM-DD` of the day before `dia`. */
export const previousDay = (dia: string): string =>
  new Date(Date.parse(`${dia}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

const count = () => z.number().check(z.int(), z.gte(0));

/** Our journal's side of a finding. */
const Lancamento = z.object({
  chave: z.string(),
  /** When the sale was made and when it was sent to the service (epoch ms). */
  criado_em: z.number(),
  enviado_em: z.number(),
  valor_gasto: z.number(),
  pontos: z.nullable(z.number()),
  terminal: z.nullable(z.string()),
});

/** The service's side: one credit of the customer's history. */
const Credito = z.object({
  id_cartela_cliente: z.nullable(z.number()),
  /** The service's own timestamp, São Paulo civil time `YYYY-MM-DD HH:MM:SS`. */
  data: z.string(),
  pontos: z.number(),
});

export const Achado = /* @__PURE__ */ lazySchema(() =>
  z.object({
    tipo: z.enum(ACHADO_TIPOS),
    celular: z.string(),
    id_cliente: z.nullable(z.number()),
    nome: z.nullable(z.string()),
    /** null: a credit we did not post, or a customer that could not be read. */
    lancamento: z.nullable(Lancamento),
    /** null: missing in the service. */
    servico: z.nullable(Credito),
    /** What the reader should know, in Portuguese. */
    detalhe: z.string(),
  }),
);
export type Achado = z.infer<typeof Achado>;
export type AchadoWire = z.input<typeof Achado>;

/** `data` of `GET|POST /api/painel/conferencia`: the day's latest run, or null (none yet). */
export const Conferencia = /* @__PURE__ */ lazySchema(() =>
  z.nullable(
    z.object({
      id: z.number(),
      dia: z.string(),
      situacao: z.enum(['em andamento', 'concluída']),
      origem: z.enum(['noite', 'gerente']),
      /**
       * How a nightly run started: at CONFERENCIA_HORA (`no_horario`), at the server's start
       * past that hour (`ao_iniciar`), or later, catching up (`atrasada`). Null for a
       * manager's run, and for a nightly run recorded before this was kept.
       */
      disparo: z.nullable(z.enum(['no_horario', 'ao_iniciar', 'atrasada'])),
      /** A finding that needs attention was found (informational ones apart). */
      precisa_atencao: z.boolean(),
      iniciada_em: z.number(),
      concluida_em: z.nullable(z.number()),
      clientes: count(),
      clientes_lidos: count(),
      leituras: count(),
      lancamentos: count(),
      confirmados: count(),
      resumo: z.object({
        ausente: count(),
        duplicado: count(),
        pontos_divergentes: count(),
        nao_conferido: count(),
        nao_lancado_por_nos: count(),
      }),
      achados: z.array(Achado),
    }),
  ),
);
export type Conferencia = z.infer<typeof Conferencia>;
export type ConferenciaWire = z.input<typeof Conferencia>;
