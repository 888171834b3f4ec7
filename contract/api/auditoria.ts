// The contract of the audit trail, the app server's own API: `GET /api/auditoria?de&ate&acao
// &terminal&pagina[&fuso]` (a manager's page of entries), `GET /api/auditoria/exportar` (every
// entry of the filters, for the CSV; the server records that export itself) and `POST
// /api/auditoria/exportacoes` (the browser records an export it writes from data it already
// read: the ledger, the rewards list). The browser parses the answers with it and the server
// checks the requests and types its answers with it. Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { pageOf } from './page';
import { DATE_MESSAGE, DAY_MS, isCalendarDate, OFFSET_MESSAGE } from './query-dates';

/** What is recorded, by code. */
export const AUDIT_ACTIONS = [
  'terminal.criado',
  'terminal.registrado',
  'terminal.revogado',
  'terminal.pareado',
  'venda.reenviada',
  'venda.descartada',
  'quiosque.venda_cancelada',
  'quiosque.saida',
  'senha.bloqueada',
  'premio.entrega',
  'exportacao',
  'vigilancia.decisao',
  'vigilancia.regras',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Entries one page shows, and the most one export takes. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_EXPORT_LIMIT = 10_000;

/** An optional calendar date `YYYY-MM-DD` that exists, as its day number since 1970-01-01. */
const optionalDay = () =>
  z.pipe(
    z.optional(z.string({ error: DATE_MESSAGE })),
    z.transform((s: string | undefined, ctx) => {
      if (s === undefined || s.trim() === '') return null;
      if (!isCalendarDate(s)) {
        ctx.issues.push({ code: 'custom', message: DATE_MESSAGE, input: s });
        return z.NEVER;
      }
      return Date.parse(`${s}T00:00:00Z`) / DAY_MS;
    }),
  );

/** An optional whole number in text (a query parameter), at least `min`. */
const optionalWhole = (message: string, min: number) =>
  z.pipe(
    z.optional(z.string({ error: message })),
    z.transform((s: string | undefined, ctx) => {
      if (s === undefined || s.trim() === '') return null;
      const n = /^\d{1,9}$/.test(s) ? Number(s) : NaN;
      if (!(n >= min)) {
        ctx.issues.push({ code: 'custom', message, input: s });
        return z.NEVER;
      }
      return n;
    }),
  );

const filterFields = () => ({
  de: optionalDay(),
  ate: optionalDay(),
  acao: z.pipe(
    z.optional(z.string()),
    z.transform((s: string | undefined, ctx) => {
      if (s === undefined || s === '') return null;
      if (!(AUDIT_ACTIONS as readonly string[]).includes(s)) {
        ctx.issues.push({ code: 'custom', message: 'Ação desconhecida.', input: s });
        return z.NEVER;
      }
      return s as AuditAction;
    }),
  ),
  terminal: optionalWhole('Terminal inválido.', 1),
  /** The browser's offset from UTC in minutes, east positive (-180 in Brasília; absent: it). */
  fuso: z.pipe(
    z.optional(z.string({ error: OFFSET_MESSAGE })),
    z.transform((s: string | undefined, ctx) => {
      if (s === undefined || s.trim() === '') return -180;
      const n = /^-?\d{1,3}$/.test(s) ? Number(s) : NaN;
      if (!(Math.abs(n) <= 14 * 60)) {
        ctx.issues.push({ code: 'custom', message: OFFSET_MESSAGE, input: s });
        return z.NEVER;
      }
      return n;
    }),
  ),
});

const periodCheck = () =>
  z.refine<{ de: number | null; ate: number | null }>(
    (q) => q.de === null || q.ate === null || q.ate >= q.de,
    {
      error: 'A data final deve ser igual ou posterior à data inicial.',
      path: ['ate'],
      when: (payload) => payload.issues.length === 0,
    },
  );

/**
 * `GET /api/auditoria`: the period `[de, ate]` (local calendar dates, both included; either
 * may be left out), an action, a terminal, the page (from 1), and the browser's offset.
 */
export const AuditQuery = /* @__PURE__ */ lazySchema(() =>
  z
    .object({ ...filterFields(), pagina: optionalWhole('Página inválida.', 1) })
    .check(periodCheck()),
);
export type AuditQuery = z.input<typeof AuditQuery>;
export type AuditFilters = z.output<typeof AuditQuery>;

/** `GET /api/auditoria/exportar`: the same filters, no page. */
export const AuditExportQuery = /* @__PURE__ */ lazySchema(() =>
  z.object(filterFields()).check(periodCheck()),
);

/** One entry as the manager reads it. */
export const AuditEntry = /* @__PURE__ */ lazySchema(() =>
  z.object({
    id: z.int(),
    /** ISO 8601 instant. */
    quando: z.string(),
    /** The terminal that acted; null: the command line on the server (`npm run terminal`). */
    terminal: z.nullable(z.object({ id: z.int(), nome: z.nullable(z.string()) })),
    /** Who acted, as it was then: a role, or `linha de comando`. */
    papel: z.nullable(z.string()),
    acao: z.string(),
    /** What was done, masked (no password, no full CPF or phone). */
    detalhes: z.looseObject({}),
    requisicao: z.nullable(z.string()),
    /** The store (establishment id) it belongs to: in the chain's list of every store only. */
    loja: z.optional(z.int()),
  }),
);
export type AuditEntry = z.infer<typeof AuditEntry>;

/** `data` of `GET /api/auditoria`. */
export const AuditPage = /* @__PURE__ */ lazySchema(() =>
  pageOf(AuditEntry, {
    por_pagina: z.int(),
    /** Every terminal the store knows, for the filter. */
    terminais: z.array(z.object({ id: z.int(), nome: z.string() })),
  }),
);
export type AuditPage = z.infer<typeof AuditPage>;
export type AuditPageWire = z.input<typeof AuditPage>;

/** `data` of `GET /api/auditoria/exportar`: every entry of the filters, newest first. */
export const AuditExport = /* @__PURE__ */ lazySchema(() =>
  z.object({ itens: z.array(AuditEntry), total: z.int() }),
);
export type AuditExport = z.infer<typeof AuditExport>;
export type AuditExportWire = z.input<typeof AuditExport>;

const FILTER_VALUE_MAX = 200;

/** `POST /api/auditoria/exportacoes`: an export the browser writes, before it writes it. */
export const ExportRecord = /* @__PURE__ */ lazySchema(() =>
  z.object({
    tipo: z.enum(['premios', 'lancamentos'], { error: 'Tipo de exportação desconhecido.' }),
    /** The filters as the screen sent them: at most 20, each text, number, yes/no or none. */
    filtros: z.looseObject({}).check(
      z.refine(
        (r) => {
          const entries = Object.entries(r);
          return (
            entries.length <= 20 &&
            entries.every(
              ([k, v]) =>
                k.length <= 40 &&
                (v === null ||
                  typeof v === 'number' ||
                  typeof v === 'boolean' ||
                  (typeof v === 'string' && v.length <= FILTER_VALUE_MAX)),
            )
          );
        },
        { error: 'Filtros inválidos.' },
      ),
    ),
    linhas: z.int({ error: 'Informe quantas linhas o arquivo tem.' }).check(z.gte(0)),
  }),
);
export type ExportRecord = z.input<typeof ExportRecord>;
