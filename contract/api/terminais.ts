// The contract of the "Terminais" screen, the app server's own API for a manager's terminals:
// `GET /api/terminais?loja` (a store's terminals), `POST /api/terminais` (a new terminal and its
// one-time enrollment code; Idempotency-Key: the same request again gives the same code),
// `POST /api/terminais/{id}/revogar` and `PUT /api/terminais/{id}/quiosque` (a counter's
// customer display: every PDV sale goes straight to that kiosk). A store's `gerente` manages
// its own store; the chain's `rede` any store. The browser parses the answers with it and the
// server checks the requests and types its answers with it. Pure: zod/mini.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';

export const TERMINAIS_PATH = '/api/terminais';

/** Every role a terminal may have (`integracao`: a PDV, made with `npm run terminal` only). */
export const TERMINAL_ROLES = ['caixa', 'gerente', 'quiosque', 'rede', 'integracao'] as const;
export type TerminalRole = (typeof TERMINAL_ROLES)[number];

/** What the screen may create: a store's gerente, all but `rede`; the chain's `rede`, all. */
export const CREATABLE_ROLES = ['caixa', 'gerente', 'quiosque', 'rede'] as const;
export type CreatableRole = (typeof CREATABLE_ROLES)[number];

export const TERMINAL_STATES = [
  'aguardando código',
  'código expirado',
  'ativo',
  'revogado',
] as const;

/** A terminal's name, as `npm run terminal -- add --name` takes it. */
export const TERMINAL_NAME_MAX = 60;

const storeId = (message: string) =>
  z.int({ error: message }).check(z.positive({ error: message }));

/** `GET /api/terminais?loja`: the store (absent: the asking terminal's). */
export const TerminalListQuery = /* @__PURE__ */ lazySchema(() =>
  z.object({
    loja: z.pipe(
      z.optional(z.string()),
      z.transform((s: string | undefined, ctx) => {
        if (s === undefined || s.trim() === '') return null;
        const n = /^\d{1,12}$/.test(s) ? Number(s) : NaN;
        if (!(n > 0)) {
          ctx.issues.push({ code: 'custom', message: 'Loja inválida.', input: s });
          return z.NEVER;
        }
        return n;
      }),
    ),
  }),
);
export type TerminalListQuery = z.input<typeof TerminalListQuery>;

/** One terminal as the screen lists it. */
export const TerminalItem = /* @__PURE__ */ lazySchema(() =>
  z.object({
    id: z.int(),
    nome: z.string(),
    papel: z.enum(TERMINAL_ROLES),
    /** The store (establishment id). */
    loja: z.int(),
    estado: z.enum(TERMINAL_STATES),
    /** ISO 8601 instants; `visto_em` is written at most once a minute. */
    criado_em: z.string(),
    visto_em: z.nullable(z.string()),
    revogado_em: z.nullable(z.string()),
    /** While the terminal waits for its code: until when the code is valid. */
    codigo_expira_em: z.nullable(z.string()),
    /** A PDV (`integracao`): the counter it rings up for. */
    caixa: z.nullable(z.int()),
    /** A counter: the kiosk its PDV sales go straight to (its customer display), if any. */
    quiosque_direto: z.nullable(z.int()),
    /** The terminal asking (it cannot revoke itself). */
    este: z.boolean(),
  }),
);
export type TerminalItem = z.infer<typeof TerminalItem>;
export type TerminalItemWire = z.input<typeof TerminalItem>;

/** `data` of `GET /api/terminais`. */
export const TerminalList = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** The store listed. */
    loja: z.int(),
    /** The stores this terminal may manage (one for a gerente), for the selector. */
    lojas: z.array(z.object({ id: z.int(), nome: z.string() })),
    /** The roles this terminal may create. */
    papeis: z.array(z.enum(CREATABLE_ROLES)),
    itens: z.array(TerminalItem),
  }),
);
export type TerminalList = z.infer<typeof TerminalList>;
export type TerminalListWire = z.input<typeof TerminalList>;

/** `POST /api/terminais`: a new terminal of a store, waiting for its code. */
export const CreateTerminalRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    /** Taken trimmed (refine only: zod's trim and minLength checks would grow the counter). */
    nome: z.string({ error: 'Digite o nome do terminal.' }).check(
      z.refine((s) => s.trim() !== '', { error: 'Digite o nome do terminal.' }),
      z.refine((s) => s.trim().length <= TERMINAL_NAME_MAX, {
        error: `O nome pode ter até ${TERMINAL_NAME_MAX} caracteres.`,
      }),
    ),
    papel: z.enum(CREATABLE_ROLES, { error: 'Escolha o papel do terminal.' }),
    /** The store (absent: the asking terminal's). */
    loja: z.optional(storeId('Loja inválida.')),
  }),
);
export type CreateTerminalRequest = z.input<typeof CreateTerminalRequest>;

/** Its answer's `data`: the code, shown once (the store keeps only its hash). */
export const CreatedTerminal = /* @__PURE__ */ lazySchema(() =>
  z.object({
    terminal: TerminalItem,
    codigo: z.string(),
    /** ISO 8601: the code is valid until then, once. */
    expira_em: z.string(),
  }),
);
export type CreatedTerminal = z.infer<typeof CreatedTerminal>;

/** `PUT /api/terminais/{id}/quiosque`: the counter's customer display (null: none). */
export const PairRequest = /* @__PURE__ */ lazySchema(() =>
  z.object({
    quiosque: z.nullable(
      z
        .int({ error: 'Escolha um quiosque ou nenhum.' })
        .check(z.positive({ error: 'Escolha um quiosque ou nenhum.' })),
    ),
  }),
);
export type PairRequest = z.input<typeof PairRequest>;

/** `data` of a revocation or a pairing: the terminal as it is now. */
export const TerminalChanged = /* @__PURE__ */ lazySchema(() =>
  z.object({ terminal: TerminalItem }),
);
export type TerminalChanged = z.infer<typeof TerminalChanged>;
