// The app server's own API for terminals: what a terminal is told of itself, and enrollment.
// One definition for both sides: the browser parses with these schemas, the server types its
// answers with them (z.input) and checks requests with them. Pure: zod, nothing else.
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';

/** Roles of an enrolled terminal. */
export const ROLES = ['caixa', 'gerente', 'quiosque', 'rede'] as const;

/** A terminal as it is told of itself (`GET /api/config`, enrollment). */
export const Terminal = /* @__PURE__ */ lazySchema(() =>
  z.looseObject({
    id: z.int(),
    name: z.string(),
    role: z.enum(ROLES),
    /** Which screens the role may use (the server decides; the navigation only follows). */
    // `painel` came later: a server from before it sends none (no dashboard). Optional, not
    // defaulted: zod's default would add its code to the counter's first load.
    navigation: z.looseObject({
      caixa: z.boolean(),
      premios: z.boolean(),
      painel: z.optional(z.boolean()),
      auditoria: z.optional(z.boolean()),
      quiosque: z.boolean(),
    }),
  }),
);
export type Terminal = z.infer<typeof Terminal>;

/** `POST /api/terminal/registrar`: the one-time code a manager gave. */
export const EnrollRequest = /* @__PURE__ */ lazySchema(() => z.object({ codigo: z.string() }));

/** Its answer's `data`. */
export const EnrollAnswer = /* @__PURE__ */ lazySchema(() => z.looseObject({ terminal: Terminal }));
export type EnrollAnswer = z.infer<typeof EnrollAnswer>;
